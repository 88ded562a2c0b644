package main

import (
	"io"
	"net/http"

	"kubeplay/core/apiserver"
)

// The API handler speaks its own request and response types (the page has
// no net/http); kubeplay serve adapts net/http's to them here.

// apiRequest reads r for the API handler. The body is read to one byte past
// the API server's limit, so that the handler refuses a larger one instead
// of reading it cut short.
func apiRequest(r *http.Request) (*apiserver.Request, error) {
	var body []byte
	if r.Body != nil {
		b, err := io.ReadAll(io.LimitReader(r.Body, apiserver.MaxRequestBodyBytes+1))
		if err != nil {
			return nil, err
		}
		body = b
	}
	return &apiserver.Request{Method: r.Method, Path: r.URL.Path, RawQuery: r.URL.RawQuery,
		Header: apiserver.Header(r.Header), Host: r.Host, Body: body}, nil
}

// apiWriter lets the API handler answer through net/http; the two header
// maps are one map under two types.
type apiWriter struct{ http.ResponseWriter }

func (w apiWriter) Header() apiserver.Header { return apiserver.Header(w.ResponseWriter.Header()) }
