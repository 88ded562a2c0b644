package kubectl

import "encoding/json"

// runners binds command paths to their implementations; a command in the
// table without a runner says it is not available yet.
var runners = map[string]func(*Invocation) error{
	"api-resources":               runAPIResources,
	"apply":                       runApply,
	"create":                      runCreate,
	"create configmap":            runCreateConfigMap,
	"create deployment":           runCreateDeployment,
	"create namespace":            runCreateNamespace,
	"create cronjob":              runCreateCronJob,
	"create job":                  runCreateJob,
	"create secret generic":       runCreateSecretGeneric,
	"create service clusterip":    runCreateServiceClusterIP,
	"create service externalname": runCreateServiceExternalName,
	"create service loadbalancer": runCreateServiceLoadBalancer,
	"create service nodeport":     runCreateServiceNodePort,
	"create serviceaccount":       runCreateServiceAccount,
	"cluster-info":                runClusterInfo,
	"expose":                      runExpose,
	"run":                         runRun,
	"version":                     runVersion,
	"top pod":                     runTopPod,
	"autoscale":                   runAutoscale,
	"top node":                    runTopNode,
	"delete":                      runDelete,
	"exec":                        runExec,
	"logs":                        runLogs,
	"get":                         runGet,
	"patch":                       runPatch,
	"scale":                       runScale,
	"rollout status":              runRolloutStatus,
	"rollout pause":               runRolloutPause,
	"rollout resume":              runRolloutResume,
	"rollout restart":             runRolloutRestart,
	"set image":                   runSetImage,
}

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }
