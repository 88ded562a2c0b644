package runtime

import (
	"regexp"
	"sync"
)

// The images the cluster's registry holds. Tags follow each repository's
// real naming, so a typo (nginx:1.14.99x, busybox:lastest) misses as it
// would on Docker Hub.

// tagsMatching is a tag test; its expression is compiled when first
// needed, since every node's catalog is built at start and most patterns
// are never consulted.
func tagsMatching(words []string, pattern string) func(string) bool {
	re := sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("^(?:" + pattern + ")$") })
	return func(tag string) bool {
		for _, w := range words {
			if tag == w {
				return true
			}
		}
		return pattern != "" && re().MatchString(tag)
	}
}

// versionTags matches tags against a version pattern, where '*' stands for
// one or more digits, '#' for one digit, and '?' makes the character before
// it optional ("v?1.*.*" is the expression `v?1\.\d+\.\d+`). Every node
// resolves the control plane's preloaded images when it starts, the page's
// first node included, where compiling a regular expression costs more
// than this.
func versionTags(pattern string) func(string) bool {
	return func(tag string) bool { return matchVersion(pattern, tag) }
}

func matchVersion(pattern, tag string) bool {
	if pattern == "" {
		return tag == ""
	}
	c, rest := pattern[0], pattern[1:]
	if rest != "" && rest[0] == '?' {
		rest = rest[1:]
		if matchVersion(rest, tag) {
			return true
		}
	}
	switch c {
	case '*':
		n := 0
		for n < len(tag) && isDigit(tag[n]) {
			n++
		}
		// A run of digits is taken whole: no pattern puts a digit after '*'.
		return n > 0 && matchVersion(rest, tag[n:])
	case '#':
		return tag != "" && isDigit(tag[0]) && matchVersion(rest, tag[1:])
	}
	return tag != "" && tag[0] == c && matchVersion(rest, tag[1:])
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

const pathEnv = "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

const nginxIndex = `<!DOCTYPE html>
<html>
<head>
<title>Welcome to nginx!</title>
<style>
html { color-scheme: light dark; }
body { width: 35em; margin: 0 auto;
font-family: Tahoma, Verdana, Arial, sans-serif; }
</style>
</head>
<body>
<h1>Welcome to nginx!</h1>
<p>If you see this page, the nginx web server is successfully installed and
working. Further configuration is required.</p>

<p>For online documentation and support please refer to
<a href="http://nginx.org/">nginx.org</a>.<br/>
Commercial support is available at
<a href="http://nginx.com/">nginx.com</a>.</p>

<p><em>Thank you for using nginx.</em></p>
</body>
</html>
`

func osRelease(pretty, id, version string) string {
	return "PRETTY_NAME=\"" + pretty + "\"\nNAME=\"" + pretty + "\"\nID=" + id + "\nVERSION_ID=\"" + version + "\"\n"
}

func nginxFamily(size int64, tags func(string) bool) *family {
	return &family{size: size, tags: tags, build: func(im *Image, tag string) {
		im.Entrypoint = []string{"/docker-entrypoint.sh"}
		im.Cmd = []string{"nginx", "-g", "daemon off;"}
		im.Env = []string{pathEnv, "NGINX_VERSION=" + nginxVersion(im)}
		im.Files["/usr/share/nginx/html/index.html"] = nginxIndex
		im.Files["/usr/share/nginx/html/50x.html"] = "<html><body><h1>An error occurred.</h1></body></html>\n"
		im.Files["/etc/nginx/nginx.conf"] = "user  nginx;\nworker_processes  auto;\n\nevents {\n    worker_connections  1024;\n}\n\nhttp {\n    include /etc/nginx/conf.d/*.conf;\n}\n"
		im.Files["/etc/os-release"] = osRelease("Debian GNU/Linux 12 (bookworm)", "debian", "12")
	}}
}

func shellFamily(size int64, tags func(string) bool, cmd string, busybox bool, release string) *family {
	return &family{size: size, tags: tags, build: func(im *Image, tag string) {
		im.Cmd = []string{cmd}
		im.Env = []string{pathEnv}
		im.Busybox = busybox
		if release != "" {
			im.Files["/etc/os-release"] = release
		}
	}}
}

func daemonFamily(size int64, tags func(string) bool, argv ...string) *family {
	return &family{size: size, tags: tags, build: func(im *Image, tag string) {
		im.Entrypoint = argv
		im.Env = []string{pathEnv}
	}}
}

func registerImages(c *Catalog) {
	semver := func(major string) string { return major + `(\.\d+){0,2}` }
	c.add("docker.io/library/busybox", shellFamily(2_167_176,
		tagsMatching([]string{"latest", "stable", "musl", "glibc", "uclibc"}, `1\.(2\d|3[0-7])(\.\d+)?(-(musl|glibc|uclibc))?`), "sh", true, ""))
	c.add("docker.io/library/alpine", shellFamily(3_652_536,
		tagsMatching([]string{"latest", "edge"}, `3\.(1?\d|2[0-1])(\.\d+)?`), "/bin/sh", true, osRelease("Alpine Linux v3.21", "alpine", "3.21.0")))
	c.add("docker.io/library/centos", shellFamily(72_625_263,
		tagsMatching([]string{"latest", "7", "8", "centos7", "centos8", "stream8", "stream9"}, `7\.\d+\.\d+|8\.\d+\.\d+`), "/bin/bash", false, osRelease("CentOS Linux 7 (Core)", "centos", "7")))
	c.add("docker.io/library/ubuntu", shellFamily(29_754_422,
		tagsMatching([]string{"latest", "rolling", "jammy", "focal", "noble", "bionic", "xenial"}, `(1[4-9]|2[0-4])\.(04|10)`), "/bin/bash", false, osRelease("Ubuntu 24.04.1 LTS", "ubuntu", "24.04")))
	c.add("docker.io/library/debian", shellFamily(48_494_272,
		tagsMatching([]string{"latest", "stable", "bookworm", "bullseye", "buster", "bookworm-slim", "bullseye-slim"}, `(9|1[0-3])(\.\d+)?(-slim)?`), "bash", false, osRelease("Debian GNU/Linux 12 (bookworm)", "debian", "12")))
	c.add("docker.io/resouer/ubuntu-bc", shellFamily(43_182_431, tagsMatching([]string{"latest"}, ""), "/bin/bash", false, osRelease("Ubuntu 16.04 LTS", "ubuntu", "16.04")))
	c.add("docker.io/library/perl", &family{size: 343_893_461,
		tags: tagsMatching([]string{"latest", "slim", "stable"}, semver(`5\.(2\d|3\d|40)`)+`(-slim)?`),
		build: func(im *Image, tag string) {
			im.Cmd = []string{"perl", "-de0"}
			im.Env = []string{pathEnv}
			im.WorkingDir = "/"
		}})
	nginxTags := tagsMatching([]string{"latest", "stable", "mainline", "alpine", "perl", "stable-alpine", "mainline-alpine"}, `1\.([7-9]|1\d|2[0-7])(\.\d+)?(-(alpine|perl|alpine-slim|bookworm))?`)
	c.add("docker.io/library/nginx", nginxFamily(72_195_292, nginxTags))
	c.add("harbor.od.com/public/nginx", nginxFamily(109_057_266, tagsMatching([]string{"v1.12", "v1.13", "v1.14", "v1.15", "latest"}, "")))
	c.add("harbor.od.com/public/centos", shellFamily(202_769_111, tagsMatching([]string{"7", "latest"}, ""), "/bin/bash", false, osRelease("CentOS Linux 7 (Core)", "centos", "7")))
	ldd := nginxFamily(22_595_405, tagsMatching(nil, `v1\.0\.\d`))
	build := ldd.build
	ldd.build = func(im *Image, tag string) {
		build(im, tag)
		im.HealthPath = "/health"
	}
	c.add("docker.io/linuxduduniao/nginx", ldd)
	c.add("docker.io/library/app", &family{size: 7_340_032, tags: versionTags("1.0.#"), build: func(im *Image, tag string) {
		im.Cmd = []string{"/app"}
		im.Env = []string{pathEnv, "APP_VERSION=" + tag}
		im.Files["/etc/os-release"] = osRelease("Alpine Linux v3.21", "alpine", "3.21.0")
	}})
	c.add("docker.io/library/httpd", daemonFamily(58_110_144, tagsMatching([]string{"latest", "alpine"}, `2\.4(\.\d+)?(-alpine)?`), "httpd-foreground"))
	c.add("docker.io/library/redis", daemonFamily(45_124_178, tagsMatching([]string{"latest", "alpine"}, semver(`[5-7]`)+`(-alpine)?`), "redis-server"))
	c.add("quay.io/fluentd_elasticsearch/fluentd", daemonFamily(140_128_347, tagsMatching(nil, `v\d+\.\d+\.\d+`), "/run.sh"))
	c.add("docker.io/prom/prometheus", daemonFamily(112_305_141, tagsMatching([]string{"latest"}, `v[23]\.\d+\.\d+`), "/bin/prometheus"))
	// kubernetes-sigs/nfs-subdir-external-provisioner: its program provisions
	// volumes on an NFS export (the simulation's external provisioner plays
	// it while the pod runs, see core/controller/volume/externalprovisioner).
	for _, reg := range []string{"registry.k8s.io/sig-storage", "k8s.gcr.io/sig-storage", "gcr.io/k8s-staging-sig-storage"} {
		c.add(reg+"/nfs-subdir-external-provisioner", daemonFamily(17_330_448, tagsMatching(nil, `v4\.0\.[0-2]`), "/nfs-subdir-external-provisioner"))
	}
	// The control plane's own images (kubeadm's static pods, kube-proxy, CoreDNS).
	for _, reg := range []string{"registry.k8s.io", "k8s.gcr.io"} {
		c.add(reg+"/pause", daemonFamily(320_368, versionTags("3.*"), "/pause"))
		for _, comp := range []string{"kube-apiserver", "kube-controller-manager", "kube-scheduler", "kube-proxy"} {
			c.add(reg+"/"+comp, daemonFamily(28_000_000, versionTags("v1.*.*"), comp))
		}
		c.add(reg+"/etcd", daemonFamily(57_680_541, versionTags("3.*.*-#"), "etcd"))
		c.add(reg+"/coredns/coredns", daemonFamily(18_562_039, versionTags("v1.*.*"), "/coredns"))
		c.add(reg+"/coredns", daemonFamily(18_562_039, versionTags("v?1.*.*"), "/coredns"))
	}
}

// daemons are programs that run until stopped and answer SIGTERM by
// exiting, without doing anything a lesson can observe.
var daemons = map[string]bool{
	"httpd-foreground": true, "redis-server": true, "run.sh": true, "prometheus": true,
	"kube-apiserver": true, "kube-controller-manager": true, "kube-scheduler": true,
	"kube-proxy": true, "etcd": true, "coredns": true, "nfs-subdir-external-provisioner": true,
}
