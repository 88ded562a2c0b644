package network

import "kubeplay/core/shell"

// RegisterTools puts curl, wget, nslookup (in the given style) and dig on
// a shell that runs at src.
func (n *Network) RegisterTools(sh *shell.Shell, src Source, style NslookupStyle) {
	sh.RegisterAt("curl", "/usr/bin/curl", CurlFrom(n, src))
	sh.RegisterAt("wget", "/usr/bin/wget", WgetFrom(n, src))
	sh.RegisterAt("nslookup", "/usr/bin/nslookup", NslookupFrom(n, src, style))
	sh.RegisterAt("dig", "/usr/bin/dig", DigFrom(n, src))
}

// Register gives a shell the network tools of a pod in namespace (a node
// when namespace is ""): busybox's nslookup in pods, BIND's on nodes. It
// makes *Network a kubelet runtime Network.
func (n *Network) Register(sh *shell.Shell, namespace string) {
	if namespace == "" {
		n.RegisterTools(sh, NodeSource(""), NslookupBind)
		return
	}
	n.RegisterTools(sh, PodSource(namespace, ""), NslookupBusybox)
}
