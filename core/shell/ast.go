package shell

// The syntax tree of a script. It is immutable once parsed, so subshells
// and functions share it freely.

// Script is a parsed script, ready to run with (*Shell).RunScript.
type Script struct {
	list *list
	src  string
	// warnings are bash's parse-time warnings (a here-document cut by the
	// end of input), printed when the script runs.
	warnings []string
}

// list is commands separated by ;, & or newlines.
type list struct {
	items []*andOr
}

func (l *list) empty() bool { return l == nil || len(l.items) == 0 }

// andOr is pipelines joined by && and ||; bg marks a trailing &.
type andOr struct {
	pipes []*pipeline
	ops   []string // ops[i] joins pipes[i] and pipes[i+1]
	bg    bool
}

type pipeline struct {
	negate bool
	cmds   []command
	stderr []bool // stderr[i]: `|&` after cmds[i]
}

// command is one of the *xxxCmd types below.
type command interface {
	redirections() []*redir
}

type base struct {
	redirs []*redir
	line   int
}

func (b *base) redirections() []*redir { return b.redirs }

type simpleCmd struct {
	base
	assigns []*assign
	words   []*word
}

type assign struct {
	name   string
	append bool // +=
	value  *word
}

type ifCmd struct {
	base
	conds  []*list // if, elif...
	bodies []*list
	els    *list
}

type forCmd struct {
	base
	name  string
	items []*word
	hasIn bool
	body  *list
}

// arithForCmd is for ((init; cond; post)).
type arithForCmd struct {
	base
	init, cond, post *word
	body             *list
}

type whileCmd struct {
	base
	until bool
	cond  *list
	body  *list
}

type caseCmd struct {
	base
	subject *word
	items   []caseItem
}

type caseItem struct {
	patterns []*word
	body     *list
	fall     string // ";;", ";&" or ";;&"
}

type groupCmd struct { // { list; }
	base
	body *list
}

type subshellCmd struct { // ( list )
	base
	body *list
}

type funcDef struct {
	base
	name string
	body command
}

// condCmd is [[ expression ]].
type condCmd struct {
	base
	expr *condExpr
}

type condExpr struct {
	op          string // "&&", "||", "!", "()" or "" for a test
	left, right *condExpr
	words       []*word // a test: [arg], [op arg] or [arg op arg]
	ops         []string
}

// arithCmd is (( expression )).
type arithCmd struct {
	base
	expr *word
}

// redir is one redirection; fd -1 means the operator's default.
type redir struct {
	fd     int
	op     string // > >> < <> >| >& <& &> &>> << <<- <<<
	target *word
	// here-documents: the body (parsed for expansion unless quoted)
	hdoc       *word
	hdocQuoted bool
	hdocDelim  string
}

// word is a shell word: parts joined without spaces.
type word struct {
	parts []wpart
	raw   string // the source text, for messages
}

type pkind int

const (
	pLit    pkind = iota // unquoted literal: subject to splitting and globbing
	pQuoted              // quoted literal ('...', \x, $'...')
	pDQ                  // "..." holding parts
	pParam               // $x, ${x...}
	pCmdSub              // $(...) or `...`
	pArith               // $((...))
)

type wpart struct {
	kind  pkind
	text  string
	parts []wpart
	param *paramExp
	sub   *list
	arith *word
}

// paramExp is ${name op arg}.
type paramExp struct {
	name   string
	length bool // ${#name}
	op     string
	arg    *word
	arg2   *word  // replacement of ${x/a/b}, length of ${x:o:l}
	bad    string // set when the expansion is a "bad substitution"
}

// litText returns the word's text when it is a single unquoted literal
// (reserved words and alias names must be exactly that).
func (w *word) litText() (string, bool) {
	if w == nil || len(w.parts) != 1 || w.parts[0].kind != pLit {
		return "", false
	}
	return w.parts[0].text, true
}

// quoted reports whether any part of the word is quoted (a quoted
// here-document delimiter turns off expansion of the body).
func (w *word) quoted() bool {
	for _, p := range w.parts {
		if p.kind != pLit {
			return true
		}
	}
	return false
}
