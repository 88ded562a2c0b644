module kubeplay

go 1.24

require github.com/goccy/go-yaml v1.19.2 // indirect
