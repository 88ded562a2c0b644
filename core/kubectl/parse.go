package kubectl

import "errors"

// CommandLine is a kubectl invocation as kubectl's command tree reads it,
// without running it: tests and tools use it to see which command and
// flags a transcript exercises.
type CommandLine struct {
	// Path is the command ("get", "rollout status", "create secret generic").
	Path string
	// Args are the positional arguments.
	Args []string
	// Flags are the flags given, by long name, each with its values in order.
	Flags map[string][]string
}

// ParseCommandLine reads args (without "kubectl") as Run would, reporting
// kubectl's own error for an unknown command or flag.
func ParseCommandLine(args []string) (CommandLine, error) {
	root := commandTree()
	cmd, rest, fs := root.find(args)
	if cmd == root {
		if _, msg := root.commandNotFound(args, rest); msg != "" {
			return CommandLine{}, errors.New(msg)
		}
	}
	if err := fs.Parse(rest); err != nil && err != errHelp {
		return CommandLine{}, err
	}
	cl := CommandLine{Path: cmd.key(), Args: fs.Args(), Flags: map[string][]string{}}
	for _, v := range fs.visited {
		cl.Flags[v.flag.Name] = append(cl.Flags[v.flag.Name], v.value)
	}
	return cl, nil
}
