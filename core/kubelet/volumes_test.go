package kubelet_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"kubeplay/core/vfs"
)

// The files of configMap, secret, downwardAPI and the service account's
// projected volume, as a container sees them a while after it started:
// content, modes and times are those of when the volumes were set up.
func TestVolumeFiles(t *testing.T) {
	c, term := cluster(t)
	apply(t, term, `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  size: large
  color: blue
---
apiVersion: v1
kind: Secret
metadata:
  name: sec
data:
  password: aHVudGVyMg==
---
apiVersion: v1
kind: Pod
metadata:
  name: vols
  labels: {app: web}
spec:
  nodeName: node01
  containers:
  - name: c
    image: nginx
    volumeMounts:
    - {name: cfg, mountPath: /etc/cfg}
    - {name: sec, mountPath: /etc/sec}
    - {name: info, mountPath: /etc/info}
  volumes:
  - name: cfg
    configMap:
      name: settings
      items: [{key: color, path: sub/color.txt}]
  - name: sec
    secret: {secretName: sec}
  - name: info
    downwardAPI:
      items: [{path: name, fieldRef: {fieldPath: metadata.name}}, {path: labels, fieldRef: {fieldPath: metadata.labels}}]
`)
	c.Advance(5 * time.Second)
	k, _ := c.Kubelet("node01")
	ctr, ok := k.Container("default", "vols", "c")
	if !ok {
		t.Fatal("no container")
	}
	c.Advance(time.Hour)
	var b strings.Builder
	for _, dir := range []string{"/etc/cfg", "/etc/sec", "/etc/info", "/var/run/secrets/kubernetes.io/serviceaccount"} {
		err := ctr.FS().Walk(dir, func(p string, fi vfs.FileInfo, err error) error {
			if err != nil {
				return err
			}
			fmt.Fprintf(&b, "%s %v %d %s", p, fi.Mode(), fi.Size(), fi.ModTime().Sub(ctr.Started))
			if data, err := ctr.FS().ReadFile(p); err == nil {
				fmt.Fprintf(&b, " %.30q", data)
			}
			b.WriteString("\n")
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	want := `/etc/cfg drwxr-xr-x 4096 -3.687811s
/etc/cfg/sub drwxr-xr-x 4096 -3.687811s
/etc/cfg/sub/color.txt -rw-r--r-- 4 -3.687811s "blue"
/etc/sec drwxr-xr-x 4096 -3.687811s
/etc/sec/password -rw-r--r-- 7 -3.687811s "hunter2"
/etc/info drwxr-xr-x 4096 -3.687811s
/etc/info/labels -rw-r--r-- 9 -3.687811s "app=\"web\""
/etc/info/name -rw-r--r-- 4 -3.687811s "vols"
/var/run/secrets/kubernetes.io/serviceaccount drwxr-xr-x 4096 -3.687811s
/var/run/secrets/kubernetes.io/serviceaccount/ca.crt -rw-r--r-- 1115 -3.687811s "-----BEGIN CERTIFICATE-----\nMI"
/var/run/secrets/kubernetes.io/serviceaccount/namespace -rw-r--r-- 7 -3.687811s "default"
/var/run/secrets/kubernetes.io/serviceaccount/token -rw------- 120 -3.687811s "eyJhbGciOiJSUzI1NiIsImtpZCI6Im"
`
	if got := b.String(); got != want {
		t.Fatalf("volume files:\n%s\nwant\n%s", got, want)
	}
}
