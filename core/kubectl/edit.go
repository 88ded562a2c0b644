package kubectl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"kubeplay/core/api"
	"kubeplay/core/api/codec"
	apierrors "kubeplay/core/api/errors"
	"kubeplay/core/apiserver"
	"kubeplay/core/apiserver/patch"
)

// editHeader opens the file the editor gets.
const editHeader = `# Please edit the object below. Lines beginning with a '#' will be ignored,
# and an empty file will abort the edit. If an error occurs while saving this file will be
# reopened with the relevant failures.
#
`

// editReason is one failure written back into the file's header.
type editReason struct {
	head  string
	other []string
}

// runEdit is `kubectl edit`: write the objects to a file, run the editor
// on it, and patch back what changed; an invalid edit reopens the file with
// the reasons in its header, an unchanged retry gives up.
func runEdit(inv *Invocation) error {
	format := inv.outputFormat()
	if format != "" && format != "yaml" && format != "json" {
		return fmt.Errorf("the edit mode doesn't support output format %q", format)
	}
	objs, _, errs, err := inv.loadLive(inv.Args, liveOptions{typeSelectsAll: true})
	if err != nil {
		return err
	}
	if len(errs) > 0 {
		return aggregate(errs)
	}
	if len(objs) == 0 {
		return errors.New("edit cancelled, no objects found")
	}
	if inv.Env.FS == nil {
		return errors.New("kubectl edit needs a file system for the editor")
	}
	original, err := editDocument(objs, format)
	if err != nil {
		return err
	}
	path := inv.editFilePath(format)
	var edited []byte
	var reasons []editReason
	containsError := false
	for {
		var buf bytes.Buffer
		if format != "json" {
			writeEditHeader(&buf, reasons)
		}
		if containsError {
			buf.Write(stripComments(edited))
		} else {
			buf.Write(original)
		}
		previous := edited
		if err := inv.Env.FS.WriteFile(path, buf.Bytes(), 0o600); err != nil {
			return err
		}
		if err := inv.launchEditor(path); err != nil {
			return err
		}
		edited, err = inv.Env.FS.ReadFile(path)
		if err != nil {
			return err
		}
		if containsError && bytes.Equal(stripComments(previous), stripComments(edited)) {
			fmt.Fprintf(inv.errOut(), "A copy of your changes has been stored to %q\n", path)
			return errors.New("Edit cancelled, no valid changes were saved.")
		}
		if bytes.Equal(stripComments(original), stripComments(edited)) {
			_ = inv.Env.FS.Remove(path)
			fmt.Fprintln(inv.errOut(), "Edit cancelled, no changes made.")
			return nil
		}
		if len(bytes.TrimSpace(stripComments(edited))) == 0 {
			_ = inv.Env.FS.Remove(path)
			fmt.Fprintln(inv.errOut(), "Edit cancelled, saved file was empty.")
			return nil
		}
		reasons = nil
		updated, err := decodeEdited(edited)
		if err != nil {
			containsError = true
			reasons = append(reasons, editReason{head: fmt.Sprintf("The edited file had a syntax error: %v", err)})
			continue
		}
		containsError = false
		if inv.recording() {
			for _, u := range updated {
				setAnnotation(u, changeCauseAnnotation, inv.changeCause())
			}
		}
		retryable, notFound, invalid, err := inv.patchEdited(objs, updated, &reasons)
		if err != nil {
			fmt.Fprintf(inv.errOut(), "A copy of your changes has been stored to %q\n", path)
			return err
		}
		if retryable > 0 {
			fmt.Fprintf(inv.errOut(), "You can run `kubectl replace -f %s` to try this update again.\n", path)
			return errExit
		}
		if notFound > 0 {
			fmt.Fprintf(inv.errOut(), "The edits you made on deleted resources have been saved to %q\n", path)
			return errExit
		}
		if invalid == 0 {
			_ = inv.Env.FS.Remove(path)
			return nil
		}
		containsError = len(reasons) > 0
	}
}

// editDocument is what the editor is given: the object in YAML (or JSON
// with -o json), several objects as a v1 List.
func editDocument(objs []liveObject, format string) ([]byte, error) {
	var v any
	if len(objs) == 1 {
		v = objs[0].obj
	} else {
		all := make([]api.Object, len(objs))
		for i, o := range objs {
			all[i] = o.obj
		}
		l := listOf(all)
		l["metadata"] = map[string]any{}
		v = l
	}
	var buf bytes.Buffer
	var err error
	if format == "json" {
		err = writeJSON(&buf, v)
	} else {
		err = writeYAML(&buf, v)
	}
	return buf.Bytes(), err
}

// editFilePath names the temporary file as os.CreateTemp would, from the
// virtual clock so runs stay deterministic.
func (inv *Invocation) editFilePath(format string) string {
	ext := ".yaml"
	if format == "json" {
		ext = ".json"
	}
	_ = inv.Env.FS.MkdirAll("/tmp", 0o777)
	n := uint64(inv.now().UnixNano())
	for i := 0; ; i++ {
		p := fmt.Sprintf("/tmp/kubectl-edit-%d%s", (n+uint64(i)*7919)%4294967296, ext)
		if !inv.Env.FS.Exists(p) {
			return p
		}
	}
}

// launchEditor runs Env.Editor, else $KUBE_EDITOR, $EDITOR or vi through
// the shell with the file's path appended.
func (inv *Invocation) launchEditor(path string) error {
	if inv.Env.Editor != nil {
		if err := inv.Env.Editor(path); err != nil {
			return fmt.Errorf("there was a problem with the editor %q", "editor")
		}
		return nil
	}
	editor := inv.Env.Getenv("KUBE_EDITOR")
	if editor == "" {
		editor = inv.Env.Getenv("EDITOR")
	}
	if editor == "" {
		editor = "vi"
	}
	if inv.Env.RunShell == nil {
		return fmt.Errorf("unable to launch the editor %q", editor)
	}
	// A simple editor gets the path as an argument; one with quotes or
	// backslashes goes through "sh -c" with the path quoted, as upstream.
	shown := editor
	if strings.ContainsAny(editor, "\"'\\") && strings.Contains(editor, " ") {
		shown = "/bin/bash -c " + editor
	}
	switch code := inv.Env.RunShell(editor + " " + fmt.Sprintf("%q", path)); code {
	case 0:
		return nil
	case 127:
		return fmt.Errorf("unable to launch the editor %q", shown)
	default:
		return fmt.Errorf("there was a problem with the editor %q", shown)
	}
}

func writeEditHeader(buf *bytes.Buffer, reasons []editReason) {
	buf.WriteString(editHeader)
	for _, r := range reasons {
		head := strings.ReplaceAll(r.head, "\n", "\n# ")
		if len(r.other) > 0 {
			fmt.Fprintf(buf, "# %s:\n", head)
		} else {
			fmt.Fprintf(buf, "# %s\n", head)
		}
		for _, o := range r.other {
			fmt.Fprintf(buf, "# * %s\n", strings.ReplaceAll(o, "\n", "\n# "))
		}
		buf.WriteString("#\n")
	}
}

// stripComments drops the lines that start with '#'.
func stripComments(b []byte) []byte {
	var out [][]byte
	for _, line := range bytes.Split(b, []byte("\n")) {
		t := bytes.TrimSpace(line)
		if bytes.HasPrefix(t, []byte("#")) && !bytes.HasPrefix(t, []byte("#!")) {
			continue
		}
		out = append(out, line)
	}
	return bytes.Join(out, []byte("\n"))
}

// decodeEdited reads the edited file back: one object, or a List's items.
func decodeEdited(b []byte) ([]api.Object, error) {
	docs, err := codec.Split(b)
	if err != nil {
		return nil, err
	}
	var out []api.Object
	for _, d := range docs {
		js := d.Data
		if !d.JSON {
			if js, err = codec.YAMLToJSON(d.Data); err != nil {
				return nil, fmt.Errorf("error converting YAML to JSON: %v", err)
			}
		}
		if isEmptyDocument(js) {
			continue
		}
		var list struct {
			Kind  string            `json:"kind"`
			Items []json.RawMessage `json:"items"`
		}
		if json.Unmarshal(js, &list) == nil && list.Kind == "List" {
			for _, item := range list.Items {
				obj, err := codec.Decode(item, codec.DecodeOptions{})
				if err != nil {
					return nil, err
				}
				out = append(out, obj)
			}
			continue
		}
		obj, err := codec.Decode(js, codec.DecodeOptions{})
		if err != nil {
			return nil, err
		}
		out = append(out, obj)
	}
	return out, nil
}

// patchEdited sends each changed object back as a strategic merge patch
// from its original, printing "edited" or "skipped"; failures are counted
// as upstream's editResults counts them.
func (inv *Invocation) patchEdited(originals []liveObject, updated []api.Object, reasons *[]editReason) (retryable, notFound, invalid int, err error) {
	for _, u := range updated {
		var orig *liveObject
		for i := range originals {
			if originals[i].obj.GetObjectMeta().UID == u.GetObjectMeta().UID {
				orig = &originals[i]
			}
		}
		if orig == nil {
			return 0, 0, 0, fmt.Errorf("no original object found for %s %q", u.GetTypeMeta().Kind, u.GetObjectMeta().Name)
		}
		before, err1 := json.Marshal(orig.obj)
		after, err2 := json.Marshal(u)
		if err1 != nil || err2 != nil {
			return 0, 0, 0, errors.New("unable to encode the edited object")
		}
		if bytes.Equal(before, after) {
			fmt.Fprintln(inv.out(), inv.operationMessage(orig.res, orig.name(), "skipped"))
			continue
		}
		ut, ot := u.GetTypeMeta(), orig.obj.GetTypeMeta()
		if ut.APIVersion != ot.APIVersion || ut.Kind != ot.Kind || u.GetObjectMeta().Name != orig.name() {
			return 0, 0, 0, errors.New("At least one of apiVersion, kind and name was changed")
		}
		p, err := patch.CreateTwoWayMergePatch(before, after, patch.KindSchema(orig.res.Kind))
		if err != nil {
			return 0, 0, 0, err
		}
		if inv.Flags.Bool("output-patch") {
			fmt.Fprintf(inv.out(), "Patch: %s\n", p)
		}
		_, err = inv.Env.Client.Patch(orig.res, orig.namespace(), orig.name(), apiserver.StrategicMergePatchType, p,
			apiserver.PatchOptions{Subresource: inv.Flags.String("subresource")})
		if err != nil {
			what := resourceWithGroup(orig.res)
			switch {
			case apierrors.IsInvalid(err):
				invalid++
				r := editReason{head: fmt.Sprintf("%s %q was not valid", what, orig.name())}
				if st, ok := err.(apiStatus); ok && st.Status().Details != nil {
					for _, c := range st.Status().Details.Causes {
						r.other = append(r.other, fmt.Sprintf("%s: %s", c.Field, c.Message))
					}
				}
				*reasons = append(*reasons, r)
				fmt.Fprintf(inv.errOut(), "error: %s %q is invalid\n", what, orig.name())
			case apierrors.IsNotFound(err):
				notFound++
				fmt.Fprintf(inv.errOut(), "error: %s %q could not be found on the server\n", what, orig.name())
			default:
				retryable++
				fmt.Fprintf(inv.errOut(), "error: %s %q could not be patched: %v\n", what, orig.name(), messageOf(err))
			}
			continue
		}
		fmt.Fprintln(inv.out(), inv.operationMessage(orig.res, orig.name(), "edited"))
	}
	return retryable, notFound, invalid, nil
}
