package validation

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/api/field"
	"kubeplay/core/api/intstr"
	"kubeplay/core/api/resource"
)

// podOptions carries what changes between a Pod and an embedded template.
type podOptions struct {
	resourceIsPod bool
}

var supportedPortProtocols = []string{api.ProtocolSCTP, api.ProtocolTCP, api.ProtocolUDP}

func validateContainerPorts(ports []api.ContainerPort, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	names := map[string]bool{}
	for i, port := range ports {
		idxPath := fldPath.Index(i)
		if port.Name != "" {
			if msgs := IsValidPortName(port.Name); len(msgs) != 0 {
				for _, m := range msgs {
					errs = append(errs, field.Invalid(idxPath.Child("name"), port.Name, m))
				}
			} else if names[port.Name] {
				errs = append(errs, field.Duplicate(idxPath.Child("name"), port.Name))
			} else {
				names[port.Name] = true
			}
		}
		if port.ContainerPort == 0 {
			errs = append(errs, field.Required(idxPath.Child("containerPort"), ""))
		} else {
			for _, m := range IsValidPortNum(int(port.ContainerPort)) {
				errs = append(errs, field.Invalid(idxPath.Child("containerPort"), port.ContainerPort, m))
			}
		}
		if port.HostPort != 0 {
			for _, m := range IsValidPortNum(int(port.HostPort)) {
				errs = append(errs, field.Invalid(idxPath.Child("hostPort"), port.HostPort, m))
			}
		}
		// An empty protocol is defaulted to TCP before validation.
		if port.Protocol != "" && !contains(supportedPortProtocols, port.Protocol) {
			errs = append(errs, field.NotSupported(idxPath.Child("protocol"), port.Protocol, supportedPortProtocols))
		}
	}
	return errs
}

var validEnvDownwardAPIFieldPaths = []string{"metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName",
	"spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"}

// ValidateEnv checks env entries.
func ValidateEnv(vars []api.EnvVar, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, ev := range vars {
		idxPath := fldPath.Index(i)
		if ev.Name == "" {
			errs = append(errs, field.Required(idxPath.Child("name"), ""))
		} else {
			for _, m := range IsRelaxedEnvVarName(ev.Name) {
				errs = append(errs, field.Invalid(idxPath.Child("name"), ev.Name, m))
			}
		}
		errs = append(errs, validateEnvVarValueFrom(ev, idxPath.Child("valueFrom"))...)
	}
	return errs
}

func validateEnvVarValueFrom(ev api.EnvVar, fldPath *field.Path) field.ErrorList {
	if ev.ValueFrom == nil {
		return nil
	}
	var errs field.ErrorList
	n := 0
	if ev.ValueFrom.FieldRef != nil {
		n++
		sorted := sortedCopy(validEnvDownwardAPIFieldPaths)
		errs = append(errs, validateObjectFieldSelector(ev.ValueFrom.FieldRef, sorted, fldPath.Child("fieldRef"))...)
	}
	if ev.ValueFrom.ResourceFieldRef != nil {
		n++
		errs = append(errs, validateContainerResourceFieldSelector(ev.ValueFrom.ResourceFieldRef, fldPath.Child("resourceFieldRef"), false)...)
	}
	if ref := ev.ValueFrom.ConfigMapKeyRef; ref != nil {
		n++
		errs = append(errs, validateKeySelector(ref.Name, ref.Key, fldPath.Child("configMapKeyRef"))...)
	}
	if ref := ev.ValueFrom.SecretKeyRef; ref != nil {
		n++
		errs = append(errs, validateKeySelector(ref.Name, ref.Key, fldPath.Child("secretKeyRef"))...)
	}
	switch {
	case n == 0:
		errs = append(errs, field.Invalid(fldPath, "", "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`"))
	case ev.Value != "":
		errs = append(errs, field.Invalid(fldPath, "", "may not be specified when `value` is not empty"))
	case n > 1:
		errs = append(errs, field.Invalid(fldPath, "", "may not have more than one field specified at a time"))
	}
	return errs
}

func validateKeySelector(name, key string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, m := range NameIsDNSSubdomain(name, false) {
		errs = append(errs, field.Invalid(fldPath.Child("name"), name, m))
	}
	if key == "" {
		errs = append(errs, field.Required(fldPath.Child("key"), ""))
	} else {
		for _, m := range IsConfigMapKey(key) {
			errs = append(errs, field.Invalid(fldPath.Child("key"), key, m))
		}
	}
	return errs
}

// ValidateEnvFrom checks envFrom entries.
func ValidateEnvFrom(vars []api.EnvFromSource, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, ev := range vars {
		idxPath := fldPath.Index(i)
		if ev.Prefix != "" {
			for _, m := range IsRelaxedEnvVarName(ev.Prefix) {
				errs = append(errs, field.Invalid(idxPath.Child("prefix"), ev.Prefix, m))
			}
		}
		n := 0
		if ev.ConfigMapRef != nil {
			n++
			errs = append(errs, validateEnvSourceName(ev.ConfigMapRef.Name, idxPath.Child("configMapRef"))...)
		}
		if ev.SecretRef != nil {
			n++
			errs = append(errs, validateEnvSourceName(ev.SecretRef.Name, idxPath.Child("secretRef"))...)
		}
		if n == 0 {
			errs = append(errs, field.Invalid(fldPath, "", "must specify one of: `configMapRef` or `secretRef`"))
		} else if n > 1 {
			errs = append(errs, field.Invalid(fldPath, "", "may not have more than one field specified at a time"))
		}
	}
	return errs
}

func validateEnvSourceName(name string, fldPath *field.Path) field.ErrorList {
	if name == "" {
		return field.ErrorList{field.Required(fldPath.Child("name"), "")}
	}
	var errs field.ErrorList
	for _, m := range NameIsDNSSubdomain(name, true) {
		errs = append(errs, field.Invalid(fldPath.Child("name"), name, m))
	}
	return errs
}

// ValidateVolumeMounts checks a container's mounts against the pod's volumes.
func ValidateVolumeMounts(mounts []api.VolumeMount, devices map[string]string, volumes map[string]*api.VolumeSource, ctr *api.Container, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	mountpoints := map[string]bool{}
	for i, mnt := range mounts {
		idxPath := fldPath.Index(i)
		if mnt.Name == "" {
			errs = append(errs, field.Required(idxPath.Child("name"), ""))
		}
		if _, ok := volumes[mnt.Name]; !ok {
			errs = append(errs, field.NotFound(idxPath.Child("name"), mnt.Name))
		}
		if mnt.MountPath == "" {
			errs = append(errs, field.Required(idxPath.Child("mountPath"), ""))
		}
		if mountpoints[mnt.MountPath] {
			errs = append(errs, field.Invalid(idxPath.Child("mountPath"), mnt.MountPath, "must be unique"))
		}
		mountpoints[mnt.MountPath] = true
		if _, ok := devices[mnt.Name]; ok {
			errs = append(errs, field.Invalid(idxPath.Child("name"), mnt.Name, "must not already exist in volumeDevices"))
		}
		for _, p := range devices {
			if p == mnt.MountPath {
				errs = append(errs, field.Invalid(idxPath.Child("mountPath"), mnt.MountPath, "must not already exist as a path in volumeDevices"))
				break
			}
		}
		if v, ok := volumes[mnt.Name]; ok && v.Image != nil {
			if mnt.SubPath != "" {
				errs = append(errs, field.Invalid(idxPath.Child("subPath"), mnt.SubPath, "not allowed in image volume sources"))
			}
			if mnt.SubPathExpr != "" {
				errs = append(errs, field.Invalid(idxPath.Child("subPathExpr"), mnt.SubPathExpr, "not allowed in image volume sources"))
			}
		}
		if mnt.SubPath != "" {
			errs = append(errs, validateLocalDescendingPath(mnt.SubPath, fldPath.Child("subPath"))...)
		}
		if mnt.SubPathExpr != "" {
			if mnt.SubPath != "" {
				errs = append(errs, field.Invalid(idxPath.Child("subPathExpr"), mnt.SubPathExpr, "subPathExpr and subPath are mutually exclusive"))
			}
			errs = append(errs, validateLocalDescendingPath(mnt.SubPathExpr, fldPath.Child("subPathExpr"))...)
		}
		if mp := mnt.MountPropagation; mp != nil {
			pp := fldPath.Child("mountPropagation")
			supported := []string{api.MountPropagationBidirectional, api.MountPropagationHostToContainer, api.MountPropagationNone}
			if !contains(supported, *mp) {
				errs = append(errs, field.NotSupported(pp, *mp, supported))
			}
			privileged := ctr != nil && ctr.SecurityContext != nil && ctr.SecurityContext.Privileged != nil && *ctr.SecurityContext.Privileged
			if *mp == api.MountPropagationBidirectional && !privileged {
				errs = append(errs, field.Forbidden(pp, "Bidirectional mount propagation is available only to privileged containers"))
			}
		}
		if rro := mnt.RecursiveReadOnly; rro != nil {
			pp := fldPath.Child("recursiveReadOnly")
			switch *rro {
			case "Disabled":
			case "Enabled", "IfPossible":
				if !mnt.ReadOnly {
					errs = append(errs, field.Forbidden(pp, "may only be specified when readOnly is true"))
				}
				if mnt.MountPropagation != nil && *mnt.MountPropagation != api.MountPropagationNone {
					errs = append(errs, field.Forbidden(pp, "may only be specified when mountPropagation is None or not specified"))
				}
			default:
				errs = append(errs, field.NotSupported(pp, *rro, []string{"Disabled", "Enabled", "IfPossible"}))
			}
		}
	}
	return errs
}

// ValidateVolumeDevices checks a container's raw block devices.
func ValidateVolumeDevices(devices []api.VolumeDevice, mounts map[string]string, volumes map[string]*api.VolumeSource, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	paths := map[string]bool{}
	names := map[string]bool{}
	for i, dev := range devices {
		idxPath := fldPath.Index(i)
		src, matched := volumes[dev.Name]
		isPVC := matched && (src.PersistentVolumeClaim != nil || src.Ephemeral != nil)
		if dev.Name == "" {
			errs = append(errs, field.Required(idxPath.Child("name"), ""))
		}
		if names[dev.Name] {
			errs = append(errs, field.Invalid(idxPath.Child("name"), dev.Name, "must be unique"))
		}
		if matched && !isPVC {
			errs = append(errs, field.Invalid(idxPath.Child("name"), dev.Name, "can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode"))
		}
		if !matched {
			errs = append(errs, field.NotFound(idxPath.Child("name"), dev.Name))
		}
		if dev.DevicePath == "" {
			errs = append(errs, field.Required(idxPath.Child("devicePath"), ""))
		}
		if paths[dev.DevicePath] {
			errs = append(errs, field.Invalid(idxPath.Child("devicePath"), dev.DevicePath, "must be unique"))
		}
		if dev.DevicePath != "" && len(validatePathNoBacksteps(dev.DevicePath, fldPath.Child("devicePath"))) > 0 {
			errs = append(errs, field.Invalid(idxPath.Child("devicePath"), dev.DevicePath, "can not contain backsteps ('..')"))
		} else {
			paths[dev.DevicePath] = true
		}
		if _, ok := mounts[dev.Name]; ok {
			errs = append(errs, field.Invalid(idxPath.Child("name"), dev.Name, "must not already exist in volumeMounts"))
		}
		for _, p := range mounts {
			if p == dev.DevicePath {
				errs = append(errs, field.Invalid(idxPath.Child("devicePath"), dev.DevicePath, "must not already exist as a path in volumeMounts"))
				break
			}
		}
		if dev.Name != "" {
			names[dev.Name] = true
		}
	}
	return errs
}

// handler is the action of a probe or lifecycle hook.
type handler struct {
	Exec      *api.ExecAction
	HTTPGet   *api.HTTPGetAction
	TCPSocket *api.TCPSocketAction
	GRPC      *api.GRPCAction
	Sleep     *api.SleepAction
}

func validateHandler(h handler, gracePeriod *int64, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	n := 0
	one := func(set bool, name string, check func(*field.Path) field.ErrorList) {
		if !set {
			return
		}
		if n > 0 {
			errs = append(errs, field.Forbidden(fldPath.Child(name), "may not specify more than 1 handler type"))
			return
		}
		n++
		errs = append(errs, check(fldPath.Child(name))...)
	}
	one(h.Exec != nil, "exec", func(p *field.Path) field.ErrorList {
		if len(h.Exec.Command) == 0 {
			return field.ErrorList{field.Required(p.Child("command"), "")}
		}
		return nil
	})
	one(h.HTTPGet != nil, "httpGet", func(p *field.Path) field.ErrorList {
		var el field.ErrorList
		// path and scheme are defaulted ("/" and HTTP) before validation.
		el = append(el, ValidatePortNumOrName(h.HTTPGet.Port, p.Child("port"))...)
		if s := h.HTTPGet.Scheme; s != "" && s != api.URISchemeHTTP && s != api.URISchemeHTTPS {
			el = append(el, field.NotSupported(p.Child("scheme"), s, []string{api.URISchemeHTTP, api.URISchemeHTTPS}))
		}
		for _, hdr := range h.HTTPGet.HTTPHeaders {
			for _, m := range IsHTTPHeaderName(hdr.Name) {
				el = append(el, field.Invalid(p.Child("httpHeaders"), hdr.Name, m))
			}
		}
		return el
	})
	one(h.TCPSocket != nil, "tcpSocket", func(p *field.Path) field.ErrorList {
		return ValidatePortNumOrName(h.TCPSocket.Port, p.Child("port"))
	})
	one(h.GRPC != nil, "grpc", func(p *field.Path) field.ErrorList {
		return ValidatePortNumOrName(intstr.FromInt(int(h.GRPC.Port)), p.Child("port"))
	})
	one(h.Sleep != nil, "sleep", func(p *field.Path) field.ErrorList {
		if gracePeriod != nil && (h.Sleep.Seconds <= 0 || h.Sleep.Seconds > *gracePeriod) {
			return field.ErrorList{field.Invalid(p, h.Sleep.Seconds, fmt.Sprintf(
				"must be greater than 0 and less than terminationGracePeriodSeconds (%d). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.", *gracePeriod))}
		}
		return nil
	})
	if n == 0 {
		errs = append(errs, field.Required(fldPath, "must specify a handler type"))
	}
	return errs
}

// ValidatePortNumOrName checks a port given as a number or a name.
func ValidatePortNumOrName(port intstr.IntOrString, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if port.Type == intstr.Int {
		for _, m := range IsValidPortNum(int(port.IntVal)) {
			errs = append(errs, field.Invalid(fldPath, int(port.IntVal), m))
		}
	} else {
		for _, m := range IsValidPortName(port.StrVal) {
			errs = append(errs, field.Invalid(fldPath, port.StrVal, m))
		}
	}
	return errs
}

func validateProbe(p *api.Probe, gracePeriod *int64, fldPath *field.Path) field.ErrorList {
	ph := p.ProbeHandler
	errs := validateHandler(handler{Exec: ph.Exec, HTTPGet: ph.HTTPGet, TCPSocket: ph.TCPSocket, GRPC: ph.GRPC}, gracePeriod, fldPath)
	errs = append(errs, ValidateNonnegativeField(int64(p.InitialDelaySeconds), fldPath.Child("initialDelaySeconds"))...)
	errs = append(errs, ValidateNonnegativeField(int64(p.TimeoutSeconds), fldPath.Child("timeoutSeconds"))...)
	errs = append(errs, ValidateNonnegativeField(int64(p.PeriodSeconds), fldPath.Child("periodSeconds"))...)
	errs = append(errs, ValidateNonnegativeField(int64(p.SuccessThreshold), fldPath.Child("successThreshold"))...)
	errs = append(errs, ValidateNonnegativeField(int64(p.FailureThreshold), fldPath.Child("failureThreshold"))...)
	if p.TerminationGracePeriodSeconds != nil && *p.TerminationGracePeriodSeconds <= 0 {
		errs = append(errs, field.Invalid(fldPath.Child("terminationGracePeriodSeconds"), *p.TerminationGracePeriodSeconds, "must be greater than 0"))
	}
	return errs
}

// successThresholdMustBeOne covers liveness and startup probes; 0 means
// not yet defaulted (to 1).
func successThresholdMustBeOne(p *api.Probe, fldPath *field.Path) field.ErrorList {
	if p.SuccessThreshold != 1 && p.SuccessThreshold != 0 {
		return field.ErrorList{field.Invalid(fldPath.Child("successThreshold"), p.SuccessThreshold, "must be 1")}
	}
	return nil
}

func validateProbes(c *api.Container, gracePeriod *int64, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	if p := c.LivenessProbe; p != nil {
		errs = append(errs, validateProbe(p, gracePeriod, path.Child("livenessProbe"))...)
		errs = append(errs, successThresholdMustBeOne(p, path.Child("livenessProbe"))...)
	}
	if p := c.ReadinessProbe; p != nil {
		errs = append(errs, validateProbe(p, gracePeriod, path.Child("readinessProbe"))...)
		if p.TerminationGracePeriodSeconds != nil {
			errs = append(errs, field.Invalid(path.Child("readinessProbe").Child("terminationGracePeriodSeconds"), *p.TerminationGracePeriodSeconds, "must not be set for readinessProbes"))
		}
	}
	if p := c.StartupProbe; p != nil {
		errs = append(errs, validateProbe(p, gracePeriod, path.Child("startupProbe"))...)
		errs = append(errs, successThresholdMustBeOne(p, path.Child("startupProbe"))...)
	}
	return errs
}

func validateLifecycle(l *api.Lifecycle, gracePeriod *int64, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if h := l.PostStart; h != nil {
		errs = append(errs, validateHandler(handler{Exec: h.Exec, HTTPGet: h.HTTPGet, TCPSocket: h.TCPSocket, Sleep: h.Sleep}, gracePeriod, fldPath.Child("postStart"))...)
	}
	if h := l.PreStop; h != nil {
		errs = append(errs, validateHandler(handler{Exec: h.Exec, HTTPGet: h.HTTPGet, TCPSocket: h.TCPSocket, Sleep: h.Sleep}, gracePeriod, fldPath.Child("preStop"))...)
	}
	return errs
}

var supportedPullPolicies = []string{api.PullAlways, api.PullIfNotPresent, api.PullNever}

// validatePullPolicy: empty is defaulted before validation.
func validatePullPolicy(policy string, fldPath *field.Path) field.ErrorList {
	if policy != "" && !contains(supportedPullPolicies, policy) {
		return field.ErrorList{field.NotSupported(fldPath, policy, supportedPullPolicies)}
	}
	return nil
}

// Resource names.

var standardResources = map[string]bool{
	"cpu": true, "memory": true, "ephemeral-storage": true,
	"requests.cpu": true, "requests.memory": true, "requests.ephemeral-storage": true,
	"limits.cpu": true, "limits.memory": true, "limits.ephemeral-storage": true,
	"pods": true, "resourcequotas": true, "services": true, "replicationcontrollers": true,
	"secrets": true, "configmaps": true, "persistentvolumeclaims": true, "storage": true,
	"requests.storage": true, "services.nodeports": true, "services.loadbalancers": true,
}

var integerResources = map[string]bool{
	"pods": true, "resourcequotas": true, "services": true, "replicationcontrollers": true,
	"secrets": true, "configmaps": true, "persistentvolumeclaims": true,
	"services.nodeports": true, "services.loadbalancers": true,
}

func isHugePageResourceName(name string) bool { return strings.HasPrefix(name, "hugepages-") }

func isStandardResourceName(name string) bool {
	return standardResources[name] || strings.HasPrefix(name, "hugepages-") || strings.HasPrefix(name, "requests.hugepages-")
}

func isNativeResource(name string) bool {
	return !strings.Contains(name, "/") || strings.Contains(name, "kubernetes.io/")
}

func isExtendedResourceName(name string) bool {
	if isNativeResource(name) || strings.HasPrefix(name, "requests.") {
		return false
	}
	return len(IsQualifiedName("requests."+name)) == 0
}

func isOvercommitAllowed(name string) bool {
	return isNativeResource(name) && !isHugePageResourceName(name)
}

func isIntegerResourceName(name string) bool {
	return integerResources[name] || isExtendedResourceName(name)
}

func validateResourceName(name string, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for _, m := range IsQualifiedName(name) {
		errs = append(errs, field.Invalid(fldPath, name, m))
	}
	if len(errs) != 0 {
		return errs
	}
	if !strings.Contains(name, "/") && !isStandardResourceName(name) {
		return append(errs, field.Invalid(fldPath, name, "must be a standard resource type or fully qualified"))
	}
	return errs
}

func validateContainerResourceName(name string, fldPath *field.Path) field.ErrorList {
	errs := validateResourceName(name, fldPath)
	if !strings.Contains(name, "/") {
		if name != "cpu" && name != "memory" && name != "ephemeral-storage" && !isHugePageResourceName(name) {
			return append(errs, field.Invalid(fldPath, name, "must be a standard resource for containers"))
		}
	} else if !isNativeResource(name) && !isExtendedResourceName(name) {
		return append(errs, field.Invalid(fldPath, name, "doesn't follow extended resource name standard"))
	}
	return errs
}

// ValidateResourceQuantityValue: non-negative, and whole for integer resources.
func ValidateResourceQuantityValue(name string, value resource.Quantity, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if value.Sign() < 0 {
		errs = append(errs, field.Invalid(fldPath, value.String(), isNegativeErrorMsg))
	}
	if isIntegerResourceName(name) && value.MilliValue()%1000 != 0 {
		errs = append(errs, field.Invalid(fldPath, qstr(value.String()), isNotIntegerErrorMsg))
	}
	return errs
}

func sortedResourceNames(rl api.ResourceList) []string {
	keys := make([]string, 0, len(rl))
	for k := range rl {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ValidateContainerResourceRequirements checks names, quantities and that
// requests do not exceed limits.
func ValidateContainerResourceRequirements(req *api.ResourceRequirements, claimNames map[string]bool, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	limPath := fldPath.Child("limits")
	reqPath := fldPath.Child("requests")
	limCPUOrMem, reqCPUOrMem, limHuge, reqHuge := false, false, false, false
	for _, name := range sortedResourceNames(req.Limits) {
		p := limPath.Key(name)
		errs = append(errs, validateContainerResourceName(name, p)...)
		errs = append(errs, ValidateResourceQuantityValue(name, req.Limits[name], p)...)
		limHuge = limHuge || isHugePageResourceName(name)
		limCPUOrMem = limCPUOrMem || name == "cpu" || name == "memory"
	}
	for _, name := range sortedResourceNames(req.Requests) {
		p := reqPath.Key(name)
		errs = append(errs, validateContainerResourceName(name, p)...)
		v := req.Requests[name]
		errs = append(errs, ValidateResourceQuantityValue(name, v, p)...)
		if lim, ok := req.Limits[name]; ok {
			l := lim
			if v.Cmp(l) != 0 && !isOvercommitAllowed(name) {
				errs = append(errs, field.Invalid(reqPath, v.String(), fmt.Sprintf("must be equal to %s limit of %s", name, l.String())))
			} else if v.Cmp(l) > 0 {
				errs = append(errs, field.Invalid(reqPath, v.String(), fmt.Sprintf("must be less than or equal to %s limit of %s", name, l.String())))
			}
		} else if !isOvercommitAllowed(name) {
			errs = append(errs, field.Required(limPath, "Limit must be set for non overcommitable resources"))
		}
		reqHuge = reqHuge || isHugePageResourceName(name)
		reqCPUOrMem = reqCPUOrMem || name == "cpu" || name == "memory"
	}
	if !limCPUOrMem && !reqCPUOrMem && (reqHuge || limHuge) {
		errs = append(errs, field.Forbidden(fldPath, "HugePages require cpu or memory"))
	}
	names := map[string]bool{}
	for i, c := range req.Claims {
		p := fldPath.Child("claims").Index(i)
		if c.Name == "" {
			errs = append(errs, field.Required(p, ""))
			continue
		}
		key := c.Name
		if c.Request != "" {
			errs = append(errs, validateDNS1123Label(c.Request, p.Child("request"))...)
			key += "/" + c.Request
		}
		if names[key] {
			errs = append(errs, field.Duplicate(p, key))
		}
		names[key] = true
		if !claimNames[c.Name] {
			e := field.NotFound(p, c.Name)
			e.Detail = "must be one of the names in pod.spec.resourceClaims"
			if len(claimNames) == 0 {
				e.Detail += " which is empty"
			} else {
				e.Detail += ": " + strings.Join(slices.Sorted(maps.Keys(claimNames)), ", ")
			}
			errs = append(errs, e)
		}
	}
	return errs
}

func validateResizePolicy(policies []api.ContainerResizePolicy, fldPath *field.Path, podRestartPolicy string) field.ErrorList {
	var errs field.ErrorList
	seen := map[string]bool{}
	for i, p := range policies {
		if seen[p.ResourceName] {
			errs = append(errs, field.Duplicate(fldPath.Index(i), p.ResourceName))
		}
		seen[p.ResourceName] = true
		switch p.ResourceName {
		case api.ResourceCPU, api.ResourceMemory:
		case "":
			errs = append(errs, field.Required(fldPath, ""))
		default:
			errs = append(errs, field.NotSupported(fldPath, p.ResourceName, []string{api.ResourceCPU, api.ResourceMemory}))
		}
		switch p.RestartPolicy {
		case api.ResizeNotRequired, api.ResizeRestartContainer:
		case "":
			errs = append(errs, field.Required(fldPath, ""))
		default:
			errs = append(errs, field.NotSupported(fldPath, p.RestartPolicy, []string{api.ResizeNotRequired, api.ResizeRestartContainer}))
		}
		if podRestartPolicy == api.RestartPolicyNever && p.RestartPolicy != api.ResizeNotRequired {
			errs = append(errs, field.Invalid(fldPath, p.RestartPolicy, "must be 'NotRequired' when `restartPolicy` is 'Never'"))
		}
	}
	return errs
}

// ValidateSecurityContext checks a container's security context.
func ValidateSecurityContext(sc *api.SecurityContext, fldPath *field.Path, hostUsers bool) field.ErrorList {
	if sc == nil {
		return nil
	}
	var errs field.ErrorList
	if sc.RunAsUser != nil {
		for _, m := range IsValidUserID(*sc.RunAsUser) {
			errs = append(errs, field.Invalid(fldPath.Child("runAsUser"), *sc.RunAsUser, m))
		}
	}
	if sc.RunAsGroup != nil {
		for _, m := range IsValidGroupID(*sc.RunAsGroup) {
			errs = append(errs, field.Invalid(fldPath.Child("runAsGroup"), *sc.RunAsGroup, m))
		}
	}
	if sc.ProcMount != nil {
		if *sc.ProcMount != api.DefaultProcMount && *sc.ProcMount != api.UnmaskedProcMount {
			errs = append(errs, field.NotSupported(fldPath.Child("procMount"), *sc.ProcMount, []string{api.DefaultProcMount, api.UnmaskedProcMount}))
		}
		if hostUsers && *sc.ProcMount == api.UnmaskedProcMount {
			errs = append(errs, field.Invalid(fldPath.Child("procMount"), *sc.ProcMount, "`hostUsers` must be false to use `Unmasked`"))
		}
	}
	errs = append(errs, validateSeccompProfileField(sc.SeccompProfile, fldPath.Child("seccompProfile"))...)
	if sc.AllowPrivilegeEscalation != nil && !*sc.AllowPrivilegeEscalation {
		if sc.Privileged != nil && *sc.Privileged {
			errs = append(errs, field.Invalid(fldPath, securityContextValue{}, "cannot set `allowPrivilegeEscalation` to false and `privileged` to true"))
		}
		if sc.Capabilities != nil {
			for _, c := range sc.Capabilities.Add {
				if c == "CAP_SYS_ADMIN" {
					errs = append(errs, field.Invalid(fldPath, securityContextValue{}, "cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN"))
				}
			}
		}
	}
	errs = append(errs, validateAppArmorProfileField(sc.AppArmorProfile, fldPath.Child("appArmorProfile"))...)
	return errs
}

// securityContextValue stands in for a SecurityContext whose upstream
// rendering would print pointer addresses.
type securityContextValue struct{}

func (securityContextValue) String() string { return "core.SecurityContext{...}" }

func validateSeccompProfileField(sp *api.SeccompProfile, fldPath *field.Path) field.ErrorList {
	if sp == nil {
		return nil
	}
	var errs field.ErrorList
	types := []string{api.SeccompProfileTypeLocalhost, api.SeccompProfileTypeRuntimeDefault, api.SeccompProfileTypeUnconfined}
	switch sp.Type {
	case api.SeccompProfileTypeLocalhost, api.SeccompProfileTypeRuntimeDefault, api.SeccompProfileTypeUnconfined:
	case "":
		errs = append(errs, field.Required(fldPath.Child("type"), "type is required when seccompProfile is set"))
	default:
		errs = append(errs, field.NotSupported(fldPath.Child("type"), sp.Type, types))
	}
	if sp.Type == api.SeccompProfileTypeLocalhost {
		if sp.LocalhostProfile == nil {
			errs = append(errs, field.Required(fldPath.Child("localhostProfile"), "must be set when seccomp type is Localhost"))
		} else {
			errs = append(errs, validateLocalDescendingPath(*sp.LocalhostProfile, fldPath.Child("localhostProfile"))...)
		}
	} else if sp.LocalhostProfile != nil {
		errs = append(errs, field.Invalid(fldPath.Child("localhostProfile"), *sp.LocalhostProfile, "can only be set when seccomp type is Localhost"))
	}
	return errs
}

func validateAppArmorProfileField(p *api.AppArmorProfile, fldPath *field.Path) field.ErrorList {
	if p == nil {
		return nil
	}
	var errs field.ErrorList
	switch p.Type {
	case api.AppArmorProfileTypeLocalhost:
		if p.LocalhostProfile == nil || strings.TrimSpace(*p.LocalhostProfile) == "" && *p.LocalhostProfile == "" {
			errs = append(errs, field.Required(fldPath.Child("localhostProfile"), "must be set when AppArmor type is Localhost"))
		} else if strings.TrimSpace(*p.LocalhostProfile) != *p.LocalhostProfile {
			errs = append(errs, field.Invalid(fldPath.Child("localhostProfile"), *p.LocalhostProfile, "must not be padded with whitespace"))
		}
	case api.AppArmorProfileTypeRuntimeDefault, api.AppArmorProfileTypeUnconfined:
		if p.LocalhostProfile != nil {
			errs = append(errs, field.Invalid(fldPath.Child("localhostProfile"), *p.LocalhostProfile, "can only be set when AppArmor type is Localhost"))
		}
	case "":
		errs = append(errs, field.Required(fldPath.Child("type"), "type is required when appArmorProfile is set"))
	default:
		errs = append(errs, field.NotSupported(fldPath.Child("type"), p.Type,
			[]string{api.AppArmorProfileTypeLocalhost, api.AppArmorProfileTypeRuntimeDefault, api.AppArmorProfileTypeUnconfined}))
	}
	return errs
}

// validateContainerCommon is shared by regular, init and ephemeral containers.
func validateContainerCommon(ctr *api.Container, volumes map[string]*api.VolumeSource, claimNames map[string]bool, path *field.Path, podRestartPolicy string, hostUsers bool) field.ErrorList {
	var errs field.ErrorList
	namePath := path.Child("name")
	if ctr.Name == "" {
		errs = append(errs, field.Required(namePath, ""))
	} else {
		errs = append(errs, validateDNS1123Label(ctr.Name, namePath)...)
	}
	if ctr.Image == "" {
		errs = append(errs, field.Required(path.Child("image"), ""))
	}
	switch ctr.TerminationMessagePolicy {
	case api.TerminationMessageReadFile, api.TerminationMessageFallbackToLogsOnError, "":
	default:
		errs = append(errs, field.NotSupported(path.Child("terminationMessagePolicy"), ctr.TerminationMessagePolicy,
			[]string{api.TerminationMessageReadFile, api.TerminationMessageFallbackToLogsOnError}))
	}
	mounts := map[string]string{}
	for _, m := range ctr.VolumeMounts {
		mounts[m.Name] = m.MountPath
	}
	devices := map[string]string{}
	for _, d := range ctr.VolumeDevices {
		devices[d.Name] = d.DevicePath
	}
	errs = append(errs, validateContainerPorts(ctr.Ports, path.Child("ports"))...)
	errs = append(errs, ValidateEnv(ctr.Env, path.Child("env"))...)
	errs = append(errs, ValidateEnvFrom(ctr.EnvFrom, path.Child("envFrom"))...)
	errs = append(errs, ValidateVolumeMounts(ctr.VolumeMounts, devices, volumes, ctr, path.Child("volumeMounts"))...)
	errs = append(errs, ValidateVolumeDevices(ctr.VolumeDevices, mounts, volumes, path.Child("volumeDevices"))...)
	errs = append(errs, validatePullPolicy(ctr.ImagePullPolicy, path.Child("imagePullPolicy"))...)
	errs = append(errs, ValidateContainerResourceRequirements(&ctr.Resources, claimNames, path.Child("resources"))...)
	errs = append(errs, validateResizePolicy(ctr.ResizePolicy, path.Child("resizePolicy"), podRestartPolicy)...)
	errs = append(errs, ValidateSecurityContext(ctr.SecurityContext, path.Child("securityContext"), hostUsers)...)
	return errs
}

// checkHostPortConflicts: a protocol/hostIP/hostPort triple appears once.
func checkHostPortConflicts(containers []api.Container, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := map[string]bool{}
	for ci, ctr := range containers {
		for pi, p := range ctr.Ports {
			if p.HostPort == 0 {
				continue
			}
			proto := p.Protocol
			if proto == "" {
				proto = api.ProtocolTCP
			}
			key := fmt.Sprintf("%s/%s/%d", proto, p.HostIP, p.HostPort)
			if seen[key] {
				errs = append(errs, field.Duplicate(fldPath.Index(ci).Child("ports").Index(pi).Child("hostPort"), key))
			}
			seen[key] = true
		}
	}
	return errs
}

func validateContainers(containers []api.Container, volumes map[string]*api.VolumeSource, claimNames map[string]bool, gracePeriod *int64, fldPath *field.Path, podRestartPolicy string, hostUsers bool) field.ErrorList {
	if len(containers) == 0 {
		return field.ErrorList{field.Required(fldPath, "")}
	}
	var errs field.ErrorList
	names := map[string]bool{}
	for i := range containers {
		ctr := &containers[i]
		path := fldPath.Index(i)
		errs = append(errs, validateContainerCommon(ctr, volumes, claimNames, path, podRestartPolicy, hostUsers)...)
		if names[ctr.Name] {
			errs = append(errs, field.Duplicate(path.Child("name"), ctr.Name))
		} else {
			names[ctr.Name] = true
		}
		if ctr.Lifecycle != nil {
			errs = append(errs, validateLifecycle(ctr.Lifecycle, gracePeriod, path.Child("lifecycle"))...)
		}
		errs = append(errs, validateProbes(ctr, gracePeriod, path)...)
		if ctr.RestartPolicy != nil {
			errs = append(errs, field.Forbidden(path.Child("restartPolicy"), "may not be set for non-init containers"))
		}
	}
	return append(errs, checkHostPortConflicts(containers, fldPath)...)
}

func validateInitContainers(containers, regular []api.Container, volumes map[string]*api.VolumeSource, claimNames map[string]bool, gracePeriod *int64, fldPath *field.Path, podRestartPolicy string, hostUsers bool) field.ErrorList {
	var errs field.ErrorList
	names := map[string]bool{}
	for _, c := range regular {
		names[c.Name] = true
	}
	for i := range containers {
		ctr := &containers[i]
		idxPath := fldPath.Index(i)
		errs = append(errs, validateContainerCommon(ctr, volumes, claimNames, idxPath, podRestartPolicy, hostUsers)...)
		restartAlways := false
		if ctr.RestartPolicy != nil {
			if *ctr.RestartPolicy != api.ContainerRestartPolicyAlways {
				errs = append(errs, field.NotSupported(idxPath.Child("restartPolicy"), *ctr.RestartPolicy, []string{api.ContainerRestartPolicyAlways}))
			}
			restartAlways = *ctr.RestartPolicy == api.ContainerRestartPolicyAlways
		}
		if names[ctr.Name] {
			errs = append(errs, field.Duplicate(idxPath.Child("name"), ctr.Name))
		} else if ctr.Name != "" {
			names[ctr.Name] = true
		}
		errs = append(errs, checkHostPortConflicts([]api.Container{*ctr}, fldPath)...)
		if restartAlways {
			if ctr.Lifecycle != nil {
				errs = append(errs, validateLifecycle(ctr.Lifecycle, gracePeriod, idxPath.Child("lifecycle"))...)
			}
			errs = append(errs, validateProbes(ctr, gracePeriod, idxPath)...)
		} else {
			const msg = "may not be set for init containers without restartPolicy=Always"
			if ctr.Lifecycle != nil {
				errs = append(errs, field.Forbidden(idxPath.Child("lifecycle"), msg))
			}
			if ctr.LivenessProbe != nil {
				errs = append(errs, field.Forbidden(idxPath.Child("livenessProbe"), msg))
			}
			if ctr.ReadinessProbe != nil {
				errs = append(errs, field.Forbidden(idxPath.Child("readinessProbe"), msg))
			}
			if ctr.StartupProbe != nil {
				errs = append(errs, field.Forbidden(idxPath.Child("startupProbe"), msg))
			}
		}
	}
	return errs
}
