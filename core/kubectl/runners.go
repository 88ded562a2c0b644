package kubectl

import "encoding/json"

// runners binds command paths to their implementations; a command in the
// table without a runner says it is not available yet.
var runners = map[string]func(*Invocation) error{
	"api-resources":     runAPIResources,
	"apply":             runApply,
	"create":            runCreate,
	"create configmap":  runCreateConfigMap,
	"create deployment": runCreateDeployment,
	"create namespace":  runCreateNamespace,
	"delete":            runDelete,
	"exec":              runExec,
	"logs":              runLogs,
	"get":               runGet,
	"patch":             runPatch,
}

func jsonMarshal(v any) ([]byte, error) { return json.Marshal(v) }
