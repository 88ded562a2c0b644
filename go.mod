module kubeplay

go 1.24
