package kubectl

import (
	"errors"
	"fmt"
	"strconv"
)

// runProxy is `kubectl proxy`: the API served without authentication on
// the terminal's loopback, so curl can reach it. It returns once serving;
// the proxy keeps running in the background of the terminal.
func runProxy(inv *Invocation) error {
	if inv.Env.Proxy == nil {
		return errors.New("kubectl proxy is not available here")
	}
	port := int(inv.Flags.Int("port"))
	if port < 0 || port > 65535 {
		return fmt.Errorf("invalid port %s", strconv.Itoa(port))
	}
	addr := inv.Flags.String("address")
	if addr == "" {
		addr = "127.0.0.1"
	}
	if err := inv.Env.Proxy(addr, port); err != nil {
		return err
	}
	fmt.Fprintf(inv.out(), "Starting to serve on %s:%d\n", addr, port)
	return nil
}
