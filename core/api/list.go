package api

// List is the body of a list response (v1 List or a typed FooList): the
// items keep their own apiVersion and kind.
type List struct {
	TypeMeta `json:",inline"`
	ListMeta `json:"metadata"`
	Items    []Object `json:"items"`
}
