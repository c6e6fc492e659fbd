package contract

// The one list of what the service's newer definitions (the public repository at commit
// 934f4954, "HEAD") add to the module this suite depends on (chainguard.dev/sdk v0.1.57).
// The service follows HEAD, so the package sends and accepts these; v0.1.57's messages
// cannot hold them. The suite tolerates exactly these additions and nothing else: before a
// strict decode it takes out each one it finds (recording it, checked against HEAD's type),
// and anything not listed here is decoded strictly by v0.1.57's messages. SpecFields, below,
// are the specification's timestamps the definitions lack, tolerated in answers the same way.

import (
	"encoding/json"
	"fmt"
	"regexp"
)

// FieldAddition is a field HEAD adds to a message of v0.1.57.
type FieldAddition struct {
	// Message is the full name of the v0.1.57 message the field is added to.
	Message string
	// Proto and JSON are the field's proto name and protobuf JSON name.
	Proto, JSON string
	// Check reports why a JSON value is not of HEAD's type, or "" when it is.
	Check func(value any) string
	// Why says what HEAD adds and where the package uses it.
	Why string
}

// EnumAddition lists the values HEAD adds to an enum of v0.1.57.
type EnumAddition struct {
	Enum   string
	Values []string
	Why    string
}

// HeadCorrelationRules are the values of HEAD's enum IdentityProvider.OIDC.CorrelationRule.
var HeadCorrelationRules = []string{"CORRELATION_RULE_UNSPECIFIED", "CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID", "CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID"}

// HeadFields are the fields HEAD adds that the package sends or receives.
var HeadFields = []FieldAddition{
	{
		Message: "chainguard.platform.iam.v2beta1.IdentityProvider.OIDC",
		Proto:   "pkce_enabled", JSON: "pkceEnabled", Check: isBool,
		Why: "HEAD: optional boolean; a provider needs a client secret, PKCE or both. Sent on create and update, answered.",
	},
	{
		Message: "chainguard.platform.iam.v2beta1.IdentityProvider.OIDC",
		Proto:   "correlation_rule", JSON: "correlationRule",
		Check: enumOf(HeadCorrelationRules...),
		Why:   "HEAD: enum CorrelationRule, set at create only. Sent on create, answered.",
	},
	{
		Message: "chainguard.platform.iam.v2beta1.IdentityProvider",
		Proto:   "scim", JSON: "scim", Check: objectWith(map[string]func(any) string{
			"enabled": isBool, "endpointUrl": isString, "tokenExpireTime": isTimestamp,
			"previousTokenExpireTime": isTimestamp, "etag": isString,
			"credentialState": enumOf("CREDENTIAL_STATE_UNSPECIFIED", "CREDENTIAL_STATE_NOT_ISSUED",
				"CREDENTIAL_STATE_LIVE", "CREDENTIAL_STATE_EXPIRED", "CREDENTIAL_STATE_REVOKED", "CREDENTIAL_STATE_ROTATING"),
		}),
		Why: "HEAD: output-only SCIM status of a provider; an answer may carry it.",
	},
	{
		Message: "chainguard.platform.vulnerabilities.v2beta1.Advisory",
		Proto:   "severities", JSON: "severities", Check: listOf(objectWith(map[string]func(any) string{
			"type":  enumOf("TYPE_UNSPECIFIED", "TYPE_CVSS_V2", "TYPE_CVSS_V3", "TYPE_CVSS_V4"),
			"score": isString,
		})),
		Why: "HEAD: output-only severities of an advisory (type and score).",
	},
	scanField("chainguard.platform.vulnerabilities.v2beta1.AdvisoryEvent.Detection.ScanV1", "scanner_version", "scannerVersion"),
	scanField("chainguard.platform.vulnerabilities.v2beta1.AdvisoryEvent.Detection.ScanV1", "grype_db_built", "grypeDbBuilt"),
	scanField("chainguard.platform.vulnerabilities.v2beta1.AdvisoryEvent.Detection.ScanV1", "grype_db_checksum", "grypeDbChecksum"),
	scanField("chainguard.platform.vulnerabilities.v2beta1.AdvisoryEvent.Fixed", "scanner_version", "scannerVersion"),
	scanField("chainguard.platform.vulnerabilities.v2beta1.AdvisoryEvent.Fixed", "grype_db_built", "grypeDbBuilt"),
	scanField("chainguard.platform.vulnerabilities.v2beta1.AdvisoryEvent.Fixed", "grype_db_checksum", "grypeDbChecksum"),
}

// SpecFields are not HEAD additions: the project's specification gives every v2 resource
// `createTime` and `updateTime`, and stands where it speaks ("Checked and left as they
// are" in the corrections: a tag keeps its createTime). Neither v0.1.57 nor HEAD declares
// these five, so an answer may carry them; they are tolerated here, as timestamps, and
// listed apart from HEAD's additions.
var SpecFields = []FieldAddition{
	specTime("chainguard.platform.registry.v2beta1.Repo", "create_time", "createTime"),
	specTime("chainguard.platform.registry.v2beta1.Repo", "update_time", "updateTime"),
	specTime("chainguard.platform.registry.v2beta1.Tag", "create_time", "createTime"),
	specTime("chainguard.platform.iam.v2beta1.RoleBinding", "update_time", "updateTime"),
	specTime("chainguard.platform.iam.v2beta1.GroupInvite", "update_time", "updateTime"),
}

func specTime(message, proto, jsonName string) FieldAddition {
	return FieldAddition{Message: message, Proto: proto, JSON: jsonName, Check: isTimestamp,
		Why: "the specification: every v2 resource has createTime and updateTime"}
}

// HeadMaskPaths are update-mask paths naming HEAD's fields (proto names, as the server matches them).
var HeadMaskPaths = map[string][]string{
	"chainguard.platform.iam.v2beta1.IdentityProvider": {"oidc.pkce_enabled", "oidc.correlation_rule"},
}

// HeadEnums are the enum values HEAD adds.
var HeadEnums = []EnumAddition{
	{
		Enum: "chainguard.platform.iam.v2beta1.ServicePrincipal",
		Values: []string{"SERVICE_PRINCIPAL_MICROFLOW", "SERVICE_PRINCIPAL_GUARDENER",
			"SERVICE_PRINCIPAL_MICROVM", "SERVICE_PRINCIPAL_SKILLS"},
		Why: "HEAD: four more platform services (13 in all); identities and account associations name them.",
	},
	{
		Enum:   "chainguard.platform.iam.v2beta1.OrgKind",
		Values: []string{"ORG_KIND_AWS_MARKETPLACE"},
		Why:    "HEAD: a group kind; the package neither sends nor checks it, an answer may carry it.",
	},
	{
		Enum: "chainguard.capabilities.Capability",
		Values: []string{
			"CAP_ACTIONS_LIST", "CAP_ARGOS_OSV_DUMP", "CAP_BUILDAPI_BUILD_CANCEL", "CAP_BUILDAPI_BUILD_CREATE",
			"CAP_BUILDAPI_BUILD_LIST", "CAP_BUILDAPI_WORKER_SYNC", "CAP_CASSIE_AC_READ", "CAP_CASSIE_AC_WRITE",
			"CAP_CASSIE_CAS_READ", "CAP_CASSIE_CAS_WRITE", "CAP_GUARDENER_ACTIONS_MIGRATE",
			"CAP_GUARDENER_ASSOCIATION_LIST", "CAP_GUARDENER_ASSOCIATION_MANAGE", "CAP_GUARDENER_ENTITLEMENT_LIST",
			"CAP_GUARDENER_ENTITLEMENT_MANAGE", "CAP_GUARDENER_SCAN_GET", "CAP_GUARDENER_SCAN_LIST",
			"CAP_IAM_SCIM_MANAGE", "CAP_LIBRARIES_AWS_MARKETPLACE_SUBSCRIPTIONS_CREATE",
			"CAP_LIBRARIES_AWS_MARKETPLACE_SUBSCRIPTIONS_LIST", "CAP_LIBRARIES_AWS_MARKETPLACE_SUBSCRIPTIONS_UPDATE",
			"CAP_LIBRARIES_CACHE_LIST", "CAP_LIBRARIES_DOTNET_CREATE", "CAP_LIBRARIES_DOTNET_LIST",
			"CAP_LIBRARIES_GO_CREATE", "CAP_LIBRARIES_GO_LIST", "CAP_LIBRARIES_REBUILDER_CVE_REMEDIATIONS_LIST",
			"CAP_LIBRARIES_REBUILDER_CVE_REMEDIATIONS_UPDATE", "CAP_LIBRARIES_REBUILDER_SOURCE_COORDINATES_RESOLVE",
			"CAP_LIBRARIES_REBUILDER_SOURCE_COORDINATES_WRITE", "CAP_LIBRARIES_REMOTE_REGISTRIES_CREATE",
			"CAP_LIBRARIES_REMOTE_REGISTRIES_DELETE", "CAP_LIBRARIES_REMOTE_REGISTRIES_LIST",
			"CAP_LIBRARIES_REQUEST_GROUPS_CREATE", "CAP_LIBRARIES_REQUEST_GROUPS_DELETE",
			"CAP_LIBRARIES_REQUEST_GROUPS_DELETE_SUBMITTED", "CAP_LIBRARIES_REQUEST_GROUPS_ITEMS_UPDATE",
			"CAP_LIBRARIES_REQUEST_GROUPS_LIST", "CAP_LIBRARIES_REQUEST_GROUPS_REFRESH_COVERAGE",
			"CAP_LIBRARIES_REQUEST_GROUPS_SUBMIT", "CAP_LIBRARIES_REQUEST_GROUPS_UPDATE", "CAP_LOGGIE_LOGS_CREATE",
			"CAP_LOGGIE_LOGS_READ", "CAP_LOGGIE_LOGS_WRITE", "CAP_POLICIES_DECISION_LIST",
			"CAP_POLICIES_OVERRIDE_CREATE", "CAP_POLICIES_OVERRIDE_DELETE", "CAP_POLICIES_OVERRIDE_LIST",
			"CAP_REGISTRY_ENTITLEMENTS_IMAGES_REMOVE", "CAP_REGISTRY_ENTITLEMENTS_IMAGES_SWAP",
			"CAP_REGISTRY_OVERLAYS_EDIT", "CAP_REGISTRY_OVERLAYS_LIST", "CAP_REPO_INTERNAL_ADMIN",
			"CAP_REX_CLASS_SERVE", "CAP_REX_CLASS_USE", "CAP_REX_EXECUTIONS_CREATE", "CAP_REX_EXECUTIONS_LIST",
			"CAP_REX_WORKERS_CONNECT", "CAP_SKILLS_DELETE", "CAP_SKILLS_HARDEN_CANCEL", "CAP_SKILLS_HARDEN_READ",
			"CAP_SKILLS_HARDEN_WRITE", "CAP_SKILLS_LIST", "CAP_SKILLS_WRITE",
		},
		Why: "HEAD: 64 more capabilities (216 in all); the SDK's CAPABILITIES is HEAD's list and roles may carry any.",
	},
}

// HeadOwnerExtra is the one pinned capability HEAD's OwnerCaps holds beyond v0.1.57's
// (corrections item 3): the built-in owner role may carry it.
var HeadOwnerExtra = []string{"CAP_IAM_SCIM_MANAGE"}

func scanField(message, proto, jsonName string) FieldAddition {
	return FieldAddition{
		Message: message, Proto: proto, JSON: jsonName, Check: isString,
		Why: "HEAD: scan provenance of detection and fixed events (output only).",
	}
}

// headEnumValue reports whether value is a HEAD addition of enum.
func headEnumValue(enum, value string) bool {
	for _, e := range HeadEnums {
		if e.Enum != enum {
			continue
		}
		for _, v := range e.Values {
			if v == value {
				return true
			}
		}
	}
	return false
}

// headField finds the HEAD (or specification) field of message named key (JSON or proto name).
func headField(message, key string) *FieldAddition {
	for _, list := range [][]FieldAddition{HeadFields, SpecFields} {
		for i := range list {
			f := &list[i]
			if f.Message == message && (f.JSON == key || f.Proto == key) {
				return f
			}
		}
	}
	return nil
}

func isBool(v any) string {
	if _, ok := v.(bool); !ok {
		return fmt.Sprintf("expected a boolean, got %s", show(v))
	}
	return ""
}

func isString(v any) string {
	if _, ok := v.(string); !ok {
		return fmt.Sprintf("expected a string, got %s", show(v))
	}
	return ""
}

var rfc3339 = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:\d\d)$`)

func isTimestamp(v any) string {
	s, ok := v.(string)
	if !ok || !rfc3339.MatchString(s) {
		return fmt.Sprintf("expected an RFC 3339 timestamp, got %s", show(v))
	}
	return ""
}

func enumOf(names ...string) func(any) string {
	return func(v any) string {
		s, _ := v.(string)
		for _, n := range names {
			if s == n {
				return ""
			}
		}
		return fmt.Sprintf("expected one of %v, got %s", names, show(v))
	}
}

func objectWith(members map[string]func(any) string) func(any) string {
	return func(v any) string {
		m, ok := v.(map[string]any)
		if !ok {
			return fmt.Sprintf("expected an object, got %s", show(v))
		}
		for k, val := range m {
			check, known := members[k]
			if !known {
				return fmt.Sprintf("unknown member %q", k)
			}
			if why := check(val); why != "" {
				return k + ": " + why
			}
		}
		return ""
	}
}

func listOf(item func(any) string) func(any) string {
	return func(v any) string {
		l, ok := v.([]any)
		if !ok {
			return fmt.Sprintf("expected an array, got %s", show(v))
		}
		for i, e := range l {
			if why := item(e); why != "" {
				return fmt.Sprintf("[%d]: %s", i, why)
			}
		}
		return ""
	}
}

func show(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 80 {
		b = append(b[:77], "..."...)
	}
	return string(b)
}
