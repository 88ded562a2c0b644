package shell

import (
	"fmt"
	"strconv"
	"time"
)

// SleepForever is what ParseSleep returns for "infinity".
const SleepForever time.Duration = -1

// ParseSleep reads coreutils sleep's operands, NUMBER[smhd]… summed, or
// "infinity". The error is sleep's own two lines.
func ParseSleep(args []string) (time.Duration, error) {
	if len(args) == 0 {
		return 0, fmt.Errorf("sleep: missing operand\nTry 'sleep --help' for more information.")
	}
	var total time.Duration
	for _, a := range args {
		if a == "infinity" || a == "inf" {
			return SleepForever, nil
		}
		d, ok := parseInterval(a)
		if !ok {
			return 0, fmt.Errorf("sleep: invalid time interval '%s'\nTry 'sleep --help' for more information.", a)
		}
		total += d
	}
	return total, nil
}

func parseInterval(s string) (time.Duration, bool) {
	unit := time.Second
	if n := len(s); n > 0 {
		switch s[n-1] {
		case 's':
			s = s[:n-1]
		case 'm':
			s, unit = s[:n-1], time.Minute
		case 'h':
			s, unit = s[:n-1], time.Hour
		case 'd':
			s, unit = s[:n-1], 24*time.Hour
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 || v > 1e9 {
		return 0, false
	}
	return time.Duration(v * float64(unit)), true
}
