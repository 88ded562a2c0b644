package kubectl

import (
	"encoding/json"
	"fmt"

	"kubeplay/core/api"
	"kubeplay/core/api/codec"
	"kubeplay/core/apiserver/patch"
)

// applyOverrides is --overrides (run, expose): the generated object as
// JSON, patched by the inline JSON as --override-type says (merge, the
// default, replaces lists whole; strategic merges them by key; json is a
// JSON patch), and read back.
func (inv *Invocation) applyOverrides(obj api.Object) (api.Object, error) {
	overrides := inv.Flags.String("overrides")
	if overrides == "" {
		return obj, nil
	}
	original, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	var patched []byte
	switch t := inv.Flags.String("override-type"); t {
	case "merge", "":
		patched, err = patch.MergePatch(original, []byte(overrides))
	case "strategic":
		patched, err = patch.StrategicMergePatch(original, []byte(overrides), patch.KindSchema(obj.GetTypeMeta().Kind))
	case "json":
		patched, err = patch.JSONPatch(original, []byte(overrides))
	default:
		return nil, fmt.Errorf("invalid override type: %v", t)
	}
	if err != nil {
		return nil, err
	}
	return codec.Decode(patched, codec.DecodeOptions{})
}
