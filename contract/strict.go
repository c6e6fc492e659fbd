package contract

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Found is one HEAD addition met in a message: where (proto path) and its JSON value.
type Found struct {
	Path  string
	Value string
}

// StripHead takes HEAD's additions (HeadFields, HeadEnums) out of the JSON value v of a
// message md, checking each against HEAD's type. It returns what it found and the problems
// (a HEAD field of the wrong type). Everything else is left for the strict decode.
func StripHead(md protoreflect.MessageDescriptor, v any, at string) (found []Found, problems []string) {
	stripMessage(md, v, at, &found, &problems)
	sort.Slice(found, func(i, j int) bool { return found[i].Path < found[j].Path })
	return found, problems
}

func join(at, name string) string {
	if at == "" {
		return name
	}
	return at + "." + name
}

func stripMessage(md protoreflect.MessageDescriptor, v any, at string, found *[]Found, problems *[]string) {
	obj, ok := v.(map[string]any)
	if !ok || strings.HasPrefix(string(md.FullName()), "google.protobuf.") {
		return
	}
	for key, val := range obj {
		if add := headField(string(md.FullName()), key); add != nil {
			path := join(at, add.Proto)
			*found = append(*found, Found{path, show(val)})
			if why := add.Check(val); why != "" {
				*problems = append(*problems, fmt.Sprintf("%s (HEAD field): %s", path, why))
			}
			delete(obj, key)
			continue
		}
		fd := md.Fields().ByJSONName(key)
		if fd == nil {
			fd = md.Fields().ByName(protoreflect.Name(key))
		}
		if fd == nil {
			continue
		}
		path := join(at, string(fd.Name()))
		switch {
		case fd.IsMap():
			if m, ok := val.(map[string]any); ok && fd.MapValue().Message() != nil {
				for k, e := range m {
					stripMessage(fd.MapValue().Message(), e, path+"["+k+"]", found, problems)
				}
			}
		case fd.Message() != nil:
			if l, ok := val.([]any); ok && fd.IsList() {
				for i, e := range l {
					stripMessage(fd.Message(), e, fmt.Sprintf("%s[%d]", path, i), found, problems)
				}
			} else {
				stripMessage(fd.Message(), val, path, found, problems)
			}
		case fd.Enum() != nil:
			enum := string(fd.Enum().FullName())
			if l, ok := val.([]any); ok && fd.IsList() {
				kept := make([]any, 0, len(l))
				for _, e := range l {
					if s, ok := e.(string); ok && headEnumValue(enum, s) {
						*found = append(*found, Found{path, show(s)})
						continue
					}
					kept = append(kept, e)
				}
				obj[key] = kept
			} else if s, ok := val.(string); ok && headEnumValue(enum, s) {
				*found = append(*found, Found{path, show(s)})
				// The zero value keeps a one-of member set, so the rest still decodes.
				obj[key] = string(fd.Enum().Values().ByNumber(0).Name())
			}
		}
	}
}

// DecodeStrict decodes JSON text into m: HEAD's additions are taken out first (and
// returned), then every remaining key, enum spelling and JSON type must be v0.1.57's.
func DecodeStrict(text []byte, m proto.Message) ([]Found, error) {
	var v any
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("not JSON: %v", err)
	}
	found, problems := StripHead(m.ProtoReflect().Descriptor(), v, "")
	if len(problems) > 0 {
		return found, fmt.Errorf("%s", strings.Join(problems, "; "))
	}
	clean, err := json.Marshal(v)
	if err != nil {
		return found, err
	}
	if err := (protojson.UnmarshalOptions{DiscardUnknown: false}).Unmarshal(clean, m); err != nil {
		return found, fmt.Errorf("not a %s: %v", m.ProtoReflect().Descriptor().FullName(), err)
	}
	return found, nil
}

// Flatten lists a message's set fields as proto path -> JSON value, for field-by-field diffs.
func Flatten(m proto.Message) map[string]string {
	out := map[string]string{}
	if m == nil {
		return out
	}
	b, err := protojson.MarshalOptions{UseProtoNames: true}.Marshal(m)
	if err != nil {
		out["<error>"] = err.Error()
		return out
	}
	var v any
	_ = json.Unmarshal(b, &v)
	flattenValue(v, "", out)
	return out
}

func flattenValue(v any, at string, out map[string]string) {
	switch t := v.(type) {
	case map[string]any:
		if len(t) == 0 && at != "" {
			out[at] = "{}"
		}
		for k, e := range t {
			flattenValue(e, join(at, k), out)
		}
	default:
		out[at] = show(v)
	}
}

// DiffFields names every path whose value differs between want and got.
func DiffFields(want, got map[string]string) []string {
	keys := map[string]bool{}
	for k := range want {
		keys[k] = true
	}
	for k := range got {
		keys[k] = true
	}
	var out []string
	for k := range keys {
		w, wok := want[k]
		g, gok := got[k]
		switch {
		case !gok:
			out = append(out, fmt.Sprintf("%s: missing, want %s", k, w))
		case !wok:
			out = append(out, fmt.Sprintf("%s: unexpected %s", k, g))
		case w != g:
			out = append(out, fmt.Sprintf("%s: got %s, want %s", k, g, w))
		}
	}
	sort.Strings(out)
	return out
}

// ResolvesField reports whether a dotted path names a field of md, each segment by its
// proto name or (when jsonNames) its JSON name, as the gateway resolves query keys.
func ResolvesField(md protoreflect.MessageDescriptor, path string, jsonNames bool) bool {
	segments := strings.Split(path, ".")
	for i, s := range segments {
		if md == nil {
			return false
		}
		fd := md.Fields().ByName(protoreflect.Name(s))
		if fd == nil && jsonNames {
			fd = md.Fields().ByJSONName(s)
		}
		if fd == nil {
			return false
		}
		if i < len(segments)-1 {
			if fd.Message() == nil || fd.IsMap() || fd.IsList() {
				return false
			}
			md = fd.Message()
		}
	}
	return true
}
