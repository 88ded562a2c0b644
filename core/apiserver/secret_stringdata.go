package apiserver

import (
	"kubeplay/core/api"
	"kubeplay/core/api/validation"
)

// mergeStringData moves a written Secret's stringData into its data, a key
// in both taking stringData's value. stringData is write-only: upstream's
// decoding into the internal type folds it in, so what is stored, read
// back and mounted is data alone.
func mergeStringData(s *api.Secret) {
	s.Data, s.StringData = validation.SecretData(s), nil
}
