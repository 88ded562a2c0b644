package api

// zz_generated_deepcopy.go is written by internal/deepcopygen; rerun after
// changing any type in this package.
//go:generate go run ./internal/deepcopygen
