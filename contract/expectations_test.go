package contract

// What each labelled operation of the driver must send, written from the official
// definitions and the project's decisions: the HTTP method and path, the RPC the gateway
// must route it to, the request message (protobuf JSON), the update mask (proto paths, as
// the server matches them) and the HEAD additions it carries (paths below the body).

// The uids the driver uses (passed to it as CONTRACT_UIDS).
const (
	rootUID       = "0123456789abcdef0123456789abcdef01234567"
	groupUID      = rootUID + "/0a0a0a0a0a0a0a0a"
	identityUID   = groupUID + "/1111111111111111"
	identity2UID  = groupUID + "/1212121212121212"
	customRoleUID = groupUID + "/2222222222222222"
	viewerRole    = "89abcdef0123456789abcdef0123456789abcdef"
	bindingUID    = groupUID + "/3333333333333333"
	idpUID        = groupUID + "/4444444444444444"
	inviteUID     = groupUID + "/5555555555555555"
	repoUID       = groupUID + "/6666666666666666"
	tagUID        = repoUID + "/7777777777777777"
	advisoryUID   = "fedcba9876543210fedcba9876543210fedcba98"
)

func driverUIDs() map[string]string {
	return map[string]string{
		"root": rootUID, "group": groupUID, "identity": identityUID, "identity2": identity2UID,
		"customRole": customRoleUID, "viewerRole": viewerRole, "binding": bindingUID, "idp": idpUID,
		"invite": inviteUID, "repo": repoUID, "tag": tagUID, "advisory": advisoryUID,
	}
}

// Call is one request an operation must make.
type Call struct {
	Method, Path string
	// RPC is the full gRPC method the gateway must route to.
	RPC string
	// Req is the request message in protobuf JSON ($URL stands for the front door's URL).
	Req string
	// Mask is the update mask's paths, when the request has one.
	Mask []string
	// Head lists the HEAD additions the body carries, "path=json value".
	Head []string
	// Form: the body is application/x-www-form-urlencoded.
	Form bool
}

// Op is one labelled operation of the driver.
type Op struct {
	Label string
	Calls []Call
}

const (
	svcGroups     = "/chainguard.platform.iam.v2beta1.GroupsService/"
	svcIdentities = "/chainguard.platform.iam.v2beta1.IdentitiesService/"
	svcRoles      = "/chainguard.platform.iam.v2beta1.RolesService/"
	svcBindings   = "/chainguard.platform.iam.v2beta1.RoleBindingsService/"
	svcIdps       = "/chainguard.platform.iam.v2beta1.IdentityProvidersService/"
	svcInvites    = "/chainguard.platform.iam.v2beta1.GroupInvitesService/"
	svcAssocs     = "/chainguard.platform.iam.v2beta1.AccountAssociationsService/"
	svcRepos      = "/chainguard.platform.registry.v2beta1.ReposService/"
	svcTags       = "/chainguard.platform.registry.v2beta1.TagsService/"
	svcAdvisories = "/chainguard.platform.vulnerabilities.v2beta1.AdvisoriesService/"
	svcSTS        = "/chainguard.platform.oidc.SecurityTokenService/"
	svcV1Groups   = "/chainguard.platform.iam.Groups/"
)

func op(label string, calls ...Call) Op { return Op{Label: label, Calls: calls} }

func get(svc, rpc, collection, uid string) Call {
	return Call{Method: "GET", Path: collection + "/" + uid, RPC: svc + rpc, Req: `{"uid":"` + uid + `"}`}
}

func del(svc, rpc, collection, uid string) Call {
	return Call{Method: "DELETE", Path: collection + "/" + uid, RPC: svc + rpc, Req: `{"uid":"` + uid + `"}`}
}

func list(svc, rpc, collection, req string) Call {
	return Call{Method: "GET", Path: collection, RPC: svc + rpc, Req: req}
}

func create(svc, rpc, collection, parent, bodyKey, body string, head ...string) Call {
	return Call{Method: "POST", Path: collection + "/" + parent, RPC: svc + rpc,
		Req: `{"parent":"` + parent + `","` + bodyKey + `":` + body + `}`, Head: head}
}

// update: body is the object's JSON without its uid (added here).
func update(svc, rpc, collection, uid, bodyKey, body string, mask []string, head ...string) Call {
	inner := `{"uid":"` + uid + `"`
	if body != "{}" {
		inner += "," + body[1:]
	} else {
		inner += "}"
	}
	return Call{Method: "PATCH", Path: collection + "/" + uid, RPC: svc + rpc,
		Req: `{"` + bodyKey + `":` + inner + `}`, Mask: mask, Head: head}
}

func paths(p ...string) []string { return p }

const (
	groupsPath     = "/iam/v2beta1/groups"
	identitiesPath = "/iam/v2beta1/identities"
	rolesPath      = "/iam/v2beta1/roles"
	bindingsPath   = "/iam/v2beta1/roleBindings"
	idpsPath       = "/iam/v2beta1/identityProviders"
	invitesPath    = "/iam/v2beta1/groupInvites"
	assocsPath     = "/iam/v2beta1/accountAssociations"
)

func groupUpdate(body string, mask ...string) Call {
	return update(svcGroups, "UpdateGroup", groupsPath, groupUID, "group", body, mask)
}
func identityUpdate(body string, mask ...string) Call {
	return update(svcIdentities, "UpdateIdentity", identitiesPath, identityUID, "identity", body, mask)
}
func roleUpdate(body string, mask ...string) Call {
	return update(svcRoles, "UpdateRole", rolesPath, customRoleUID, "role", body, mask)
}
func bindingUpdate(body string, mask ...string) Call {
	return update(svcBindings, "UpdateRoleBinding", bindingsPath, bindingUID, "roleBinding", body, mask)
}
func idpUpdate(body string, mask []string, head ...string) Call {
	return update(svcIdps, "UpdateIdentityProvider", idpsPath, idpUID, "identityProvider", body, mask, head...)
}
func assocUpdate(body string, mask ...string) Call {
	return update(svcAssocs, "UpdateAccountAssociation", assocsPath, groupUID, "accountAssociation", body, mask)
}

// Expected lists every operation of the driver, in its order.
var Expected = []Op{
	op("sdk iam.groups.create", create(svcGroups, "CreateGroup", groupsPath, rootUID, "group",
		`{"name":"team","description":"the team"}`)),
	// A root organisation: the parent is empty (HEAD: "Empty for creating root organizations").
	op("sdk iam.groups.createOrganization", Call{Method: "POST", Path: groupsPath, RPC: svcGroups + "CreateGroup",
		Req: `{"group":{"name":"acme-org","description":"a new organisation"}}`}),
	op("sdk iam.groups.get", get(svcGroups, "GetGroup", groupsPath, groupUID)),
	op("sdk iam.groups.list (every common parameter)", list(svcGroups, "ListGroups", groupsPath,
		`{"uidp":{"childrenOf":"`+rootUID+`"},"name":"team","pageSize":10,"pageToken":"page-2","orderBy":"name desc","skip":2}`)),
	op("sdk iam.groups.list (descendantsOf)", list(svcGroups, "ListGroups", groupsPath,
		`{"uidp":{"descendantsOf":"`+rootUID+`"}}`)),
	op("sdk iam.groups.update (mask description)", groupUpdate(`{"description":"new"}`, "description")),
	// Without a mask the gateway derives one from the body, with proto names.
	op("sdk iam.groups.update (no mask)", groupUpdate(`{"name":"renamed"}`, "name")),
	op("sdk iam.groups.delete", del(svcGroups, "DeleteGroup", groupsPath, groupUID)),

	op("sdk iam.identities.create (claimMatch)", create(svcIdentities, "CreateIdentity", identitiesPath, groupUID, "identity",
		`{"name":"ci","description":"ci jobs","claimMatch":{"issuer":"https://token.example","subject":"repo:org/app:ref:refs/heads/main","audience":"contract-audience","claims":{"repository":"org/app"}}}`)),
	op("sdk iam.identities.create (claimMatch patterns)", create(svcIdentities, "CreateIdentity", identitiesPath, groupUID, "identity",
		`{"name":"ci-patterns","claimMatch":{"issuerPattern":"https://token\\.example/.*","subjectPattern":"repo:org/.*","audiencePattern":"aud-.*","claimPatterns":{"ref":"refs/heads/.*"}}}`)),
	op("sdk iam.identities.create (staticKeys)", create(svcIdentities, "CreateIdentity", identitiesPath, groupUID, "identity",
		`{"name":"offline","staticKeys":{"issuer":"https://offline.example","subject":"robot","issuerKeys":"{\"keys\":[]}","expirationTime":"2026-06-01T00:00:00Z","audiences":["offline-aud"]}}`)),
	op("sdk iam.identities.create (awsIdentity)", create(svcIdentities, "CreateIdentity", identitiesPath, groupUID, "identity",
		`{"name":"aws","awsIdentity":{"awsAccount":"123456789012","arnPattern":"arn:aws:iam::123456789012:role/.*","userId":"AROAEXAMPLE"}}`)),
	op("sdk iam.identities.create (servicePrincipal INGESTER)", create(svcIdentities, "CreateIdentity", identitiesPath, groupUID, "identity",
		`{"name":"ingester","servicePrincipal":"SERVICE_PRINCIPAL_INGESTER"}`)),
	// v0.1.57 cannot hold HEAD's value: it is taken out (recorded), the one-of left at its zero.
	op("sdk iam.identities.create (servicePrincipal GUARDENER, HEAD)", create(svcIdentities, "CreateIdentity", identitiesPath, groupUID, "identity",
		`{"name":"guardener","servicePrincipal":"SERVICE_PRINCIPAL_UNSPECIFIED"}`, `service_principal="SERVICE_PRINCIPAL_GUARDENER"`)),
	op("sdk iam.identities.get", get(svcIdentities, "GetIdentity", identitiesPath, identityUID)),
	op("sdk iam.identities.list (relationshipType)", list(svcIdentities, "ListIdentities", identitiesPath,
		`{"uidp":{"childrenOf":"`+groupUID+`"},"relationshipType":"RELATIONSHIP_TYPE_STATIC"}`)),
	op("sdk iam.identities.update (mask claim_match.subject_pattern)", identityUpdate(
		`{"claimMatch":{"subjectPattern":"repo:org/.*"}}`, "claim_match.subject_pattern")),
	op("sdk iam.identities.delete", del(svcIdentities, "DeleteIdentity", identitiesPath, identityUID)),

	op("sdk iam.roles.create", create(svcRoles, "CreateRole", rolesPath, groupUID, "role",
		`{"name":"puller","description":"pulls","capabilities":["CAP_REPO_LIST","CAP_IAM_GROUPS_LIST"]}`)),
	op("sdk iam.roles.get (custom)", get(svcRoles, "GetRole", rolesPath, customRoleUID)),
	op("sdk iam.roles.get (built-in)", get(svcRoles, "GetRole", rolesPath, viewerRole)),
	op("sdk iam.roles.list (childrenOf)", list(svcRoles, "ListRoles", rolesPath, `{"uidp":{"childrenOf":"`+groupUID+`"}}`)),
	op("sdk iam.roles.update (mask capabilities)", roleUpdate(`{"capabilities":["CAP_REPO_LIST","CAP_TAG_LIST"]}`, "capabilities")),
	op("sdk iam.roles.delete", del(svcRoles, "DeleteRole", rolesPath, customRoleUID)),

	op("sdk iam.roleBindings.create", create(svcBindings, "CreateRoleBinding", bindingsPath, groupUID, "roleBinding",
		`{"identityUid":"`+identityUID+`","roleUid":"`+viewerRole+`"}`)),
	op("sdk iam.roleBindings.get", get(svcBindings, "GetRoleBinding", bindingsPath, bindingUID)),
	op("sdk iam.roleBindings.list (identity, group, role)", list(svcBindings, "ListRoleBindings", bindingsPath,
		`{"identity":"`+identityUID+`","group":"`+groupUID+`","role":"`+viewerRole+`"}`)),
	op("sdk iam.roleBindings.update (mask role_uid)", bindingUpdate(`{"roleUid":"`+customRoleUID+`"}`, "role_uid")),
	op("sdk iam.roleBindings.delete", del(svcBindings, "DeleteRoleBinding", bindingsPath, bindingUID)),

	op("sdk iam.identityProviders.create", create(svcIdps, "CreateIdentityProvider", idpsPath, groupUID, "identityProvider",
		`{"name":"sso","description":"sign-in","defaultRole":"`+viewerRole+`","oidc":{"issuer":"https://login.example","clientId":"client-id","clientSecret":"contract-client-secret","additionalScopes":["email","profile"],"groupsClaim":"groups"}}`,
		`oidc.correlation_rule="CORRELATION_RULE_OID_EQUALS_EXTERNAL_ID"`, `oidc.pkce_enabled=true`)),
	op("sdk iam.identityProviders.get", get(svcIdps, "GetIdentityProvider", idpsPath, idpUID)),
	op("sdk iam.identityProviders.list (childrenOf, name)", list(svcIdps, "ListIdentityProviders", idpsPath,
		`{"uidp":{"childrenOf":"`+groupUID+`"},"name":"sso"}`)),
	op("sdk iam.identityProviders.update (mask oidc.client_id)", idpUpdate(`{"oidc":{"clientId":"client-2"}}`, paths("oidc.client_id"))),
	op("sdk iam.identityProviders.delete", del(svcIdps, "DeleteIdentityProvider", idpsPath, idpUID)),

	op("sdk iam.groupInvites.create", create(svcInvites, "CreateGroupInvite", invitesPath, groupUID, "groupInvite",
		`{"roleUid":"`+viewerRole+`","ttl":"3600s","email":"someone@example.com","singleUse":true}`)),
	op("sdk iam.groupInvites.get", get(svcInvites, "GetGroupInvite", invitesPath, inviteUID)),
	op("sdk iam.groupInvites.list (childrenOf, keyId)", list(svcInvites, "ListGroupInvites", invitesPath,
		`{"uidp":{"childrenOf":"`+groupUID+`"},"keyId":"contract-key-1"}`)),
	op("sdk iam.groupInvites.delete", del(svcInvites, "DeleteGroupInvite", invitesPath, inviteUID)),

	op("sdk iam.accountAssociations.create", create(svcAssocs, "CreateAccountAssociation", assocsPath, groupUID, "accountAssociation",
		`{"name":"accounts","description":"outside accounts","amazon":{"account":"123456789012"},"google":{"projectId":"my-project","projectNumber":"123456"},`+
			`"azure":{"tenantId":"00000000-0000-0000-0000-000000000001","clientIds":{"ingester":"00000000-0000-0000-0000-000000000002"}},`+
			`"github":{"appInstallations":{"42":{"installations":[{"installationId":"7","name":"org"}]}}},`+
			`"chainguard":{"serviceBindings":{"INGESTER":"`+identityUID+`"}}}`)),
	op("sdk iam.accountAssociations.get", get(svcAssocs, "GetAccountAssociation", assocsPath, groupUID)),
	op("sdk iam.accountAssociations.list (descendantsOf)", list(svcAssocs, "ListAccountAssociations", assocsPath,
		`{"uidp":{"descendantsOf":"`+rootUID+`"}}`)),
	op("sdk iam.accountAssociations.update (mask amazon)", assocUpdate(`{"amazon":{"account":"210987654321"}}`, "amazon")),
	op("sdk iam.accountAssociations.delete", del(svcAssocs, "DeleteAccountAssociation", assocsPath, groupUID)),

	op("sdk registry.repos.get", get(svcRepos, "GetRepo", "/registry/v2beta1/repos", repoUID)),
	op("sdk registry.repos.list (childrenOf, name)", list(svcRepos, "ListRepos", "/registry/v2beta1/repos",
		`{"uidp":{"childrenOf":"`+groupUID+`"},"name":"nginx"}`)),
	op("sdk registry.tags.get", get(svcTags, "GetTag", "/registry/v2beta1/tags", tagUID)),
	op("sdk registry.tags.list (childrenOf)", list(svcTags, "ListTags", "/registry/v2beta1/tags",
		`{"uidp":{"childrenOf":"`+repoUID+`"}}`)),
	op("sdk vulnerabilities.advisories.get", get(svcAdvisories, "GetAdvisory", "/vulnerabilities/v2beta1/advisories", advisoryUID)),
	op("sdk vulnerabilities.advisories.list (official filters)", list(svcAdvisories, "ListAdvisories", "/vulnerabilities/v2beta1/advisories",
		`{"artifactNames":["nginx"],"componentNames":["openssl"],"aliases":["CVE-2024-0001"],"query":"ssl","pageSize":5}`)),
	op("sdk v1.groups.list", Call{Method: "GET", Path: "/iam/v1/groups", RPC: svcV1Groups + "List", Req: `{}`}),
	// POST with a form body (aud = the API's base URL, identity), then the call it was for.
	op("sdk token exchange",
		Call{Method: "POST", Path: "/sts/exchange", RPC: svcSTS + "Exchange", Form: true,
			Req: `{"aud":["$URL"],"identity":"` + identityUID + `"}`},
		get(svcGroups, "GetGroup", groupsPath, groupUID)),
	// In GitHub Actions the OIDC token is asked for the host of {auth_url} by default.
	op("sdk token exchange (GitHub Actions OIDC)",
		Call{Method: "GET", Path: "/_contract/github-oidc", RPC: githubOIDC, Req: "audience=$HOST"},
		Call{Method: "POST", Path: "/sts/exchange", RPC: svcSTS + "Exchange", Form: true,
			Req: `{"aud":["$URL"],"identity":"` + identityUID + `"}`},
		get(svcGroups, "GetGroup", groupsPath, groupUID)),

	// Provider creates.
	op("provider group create", create(svcGroups, "CreateGroup", groupsPath, rootUID, "group",
		`{"name":"team","description":"the team"}`)),
	op("provider identity create", create(svcIdentities, "CreateIdentity", identitiesPath, groupUID, "identity",
		`{"name":"ci","claimMatch":{"issuer":"https://token.example","subject":"ci"}}`)),
	op("provider role create", create(svcRoles, "CreateRole", rolesPath, groupUID, "role",
		`{"name":"puller","capabilities":["CAP_IAM_GROUPS_LIST","CAP_REPO_LIST"]}`)),
	op("provider binding create", create(svcBindings, "CreateRoleBinding", bindingsPath, groupUID, "roleBinding",
		`{"identityUid":"`+identityUID+`","roleUid":"`+viewerRole+`"}`)),
	op("provider idp create", create(svcIdps, "CreateIdentityProvider", idpsPath, groupUID, "identityProvider",
		`{"name":"sso","defaultRole":"`+viewerRole+`","oidc":{"issuer":"https://login.example","clientId":"client-id"}}`,
		`oidc.correlation_rule="CORRELATION_RULE_SUB_EQUALS_EXTERNAL_ID"`, `oidc.pkce_enabled=true`)),
	op("provider invite create", create(svcInvites, "CreateGroupInvite", invitesPath, groupUID, "groupInvite",
		`{"roleUid":"`+viewerRole+`","ttl":"3600s"}`)),
	op("provider assoc create", create(svcAssocs, "CreateAccountAssociation", assocsPath, groupUID, "accountAssociation",
		`{"name":"accounts","amazon":{"account":"123456789012"}}`)),

	// Provider updates: one per mask path.
	op("provider group update name", groupUpdate(`{"name":"team-2"}`, "name")),
	op("provider group update description", groupUpdate(`{"description":"new"}`, "description")),
	op("provider role update name", roleUpdate(`{"name":"puller-2"}`, "name")),
	op("provider role update description", roleUpdate(`{"description":"new"}`, "description")),
	op("provider role update capabilities", roleUpdate(`{"capabilities":["CAP_REPO_LIST","CAP_TAG_LIST"]}`, "capabilities")),
	op("provider binding update roleUid", bindingUpdate(`{"roleUid":"`+customRoleUID+`"}`, "role_uid")),
	op("provider binding update identityUid", bindingUpdate(`{"identityUid":"`+identity2UID+`"}`, "identity_uid")),
	op("provider idp update name", idpUpdate(`{"name":"sso-2"}`, paths("name"))),
	op("provider idp update description", idpUpdate(`{"description":"new"}`, paths("description"))),
	op("provider idp update defaultRole", idpUpdate(`{"defaultRole":"`+customRoleUID+`"}`, paths("default_role"))),
	op("provider idp update oidc.issuer", idpUpdate(`{"oidc":{"issuer":"https://login2.example"}}`, paths("oidc.issuer"))),
	op("provider idp update oidc.clientId", idpUpdate(`{"oidc":{"clientId":"client-2"}}`, paths("oidc.client_id"))),
	op("provider idp update oidc.additionalScopes", idpUpdate(`{"oidc":{"additionalScopes":["email","profile"]}}`, paths("oidc.additional_scopes"))),
	op("provider idp update oidc.groupsClaim", idpUpdate(`{"oidc":{"groupsClaim":"teams"}}`, paths("oidc.groups_claim"))),
	op("provider idp update oidc.pkceEnabled", idpUpdate(`{"oidc":{}}`, paths("oidc.pkce_enabled"), `oidc.pkce_enabled=true`)),
	op("provider idp update clientSecret", idpUpdate(`{"oidc":{"clientSecret":"new-client-secret"}}`, paths("oidc.client_secret"))),
	op("provider identity update name", identityUpdate(`{"name":"ci-2"}`, "name")),
	op("provider identity update description", identityUpdate(`{"description":"new"}`, "description")),
	op("provider identity update claimMatch.issuer", identityUpdate(`{"claimMatch":{"issuer":"https://token2.example"}}`, "claim_match.issuer")),
	op("provider identity update claimMatch.subject", identityUpdate(`{"claimMatch":{"subject":"ci-2"}}`, "claim_match.subject")),
	op("provider identity update claimMatch.audience", identityUpdate(`{"claimMatch":{"audience":"aud-2"}}`, "claim_match.audience")),
	op("provider identity update claimMatch.claims", identityUpdate(`{"claimMatch":{"claims":{"repository":"org/other"}}}`, "claim_match.claims")),
	op("provider identity update claimMatch.issuerPattern", identityUpdate(`{"claimMatch":{"issuerPattern":"https://token2\\.example/.*"}}`, "claim_match.issuer_pattern")),
	op("provider identity update claimMatch.subjectPattern", identityUpdate(`{"claimMatch":{"subjectPattern":"cd-.*"}}`, "claim_match.subject_pattern")),
	op("provider identity update claimMatch.audiencePattern", identityUpdate(`{"claimMatch":{"audiencePattern":"aud2-.*"}}`, "claim_match.audience_pattern")),
	op("provider identity update claimMatch.claimPatterns", identityUpdate(`{"claimMatch":{"claimPatterns":{"ref":"refs/tags/.*"}}}`, "claim_match.claim_patterns")),
	op("provider identity update staticKeys.issuer", identityUpdate(`{"staticKeys":{"issuer":"https://offline2.example"}}`, "static_keys.issuer")),
	op("provider identity update staticKeys.subject", identityUpdate(`{"staticKeys":{"subject":"robot-2"}}`, "static_keys.subject")),
	op("provider identity update staticKeys.issuerKeys", identityUpdate(`{"staticKeys":{"issuerKeys":"{\"keys\":[{\"kty\":\"OKP\"}]}"}}`, "static_keys.issuer_keys")),
	op("provider identity update staticKeys.expirationTime", identityUpdate(`{"staticKeys":{"expirationTime":"2026-07-01T00:00:00Z"}}`, "static_keys.expiration_time")),
	op("provider identity update staticKeys.audiences", identityUpdate(`{"staticKeys":{"audiences":["aud-2"]}}`, "static_keys.audiences")),
	op("provider identity update awsIdentity.awsAccount", identityUpdate(`{"awsIdentity":{"awsAccount":"210987654321"}}`, "aws_identity.aws_account")),
	op("provider identity update awsIdentity.arn", identityUpdate(`{"awsIdentity":{"arn":"arn:aws:iam::123456789012:role/cd"}}`, "aws_identity.arn")),
	op("provider identity update awsIdentity.arnPattern", identityUpdate(`{"awsIdentity":{"arnPattern":"arn:aws:iam::123456789012:role/.*"}}`, "aws_identity.arn_pattern")),
	op("provider identity update awsIdentity.userId", identityUpdate(`{"awsIdentity":{"userId":"AROAOTHER"}}`, "aws_identity.user_id")),
	op("provider identity update awsIdentity.userIdPattern", identityUpdate(`{"awsIdentity":{"userIdPattern":"AROA.*"}}`, "aws_identity.user_id_pattern")),
	op("provider assoc update name", assocUpdate(`{"name":"accounts-2"}`, "name")),
	op("provider assoc update description", assocUpdate(`{"description":"new"}`, "description")),
	op("provider assoc update amazon", assocUpdate(`{"amazon":{"account":"210987654321"}}`, "amazon")),
	op("provider assoc update google", assocUpdate(`{"google":{"projectId":"my-project","projectNumber":"123456"}}`, "google")),
	op("provider assoc update azure", assocUpdate(`{"azure":{"tenantId":"00000000-0000-0000-0000-000000000001","clientIds":{"ingester":"00000000-0000-0000-0000-000000000002"}}}`, "azure")),
	op("provider assoc update github", assocUpdate(`{"github":{"appInstallations":{"42":{"installations":[{"installationId":"7","name":"org"}]}}}}`, "github")),
	op("provider assoc update chainguard", assocUpdate(`{"chainguard":{"serviceBindings":{"INGESTER":"`+identityUID+`"}}}`, "chainguard")),

	// Provider read (refresh) and delete.
	op("provider group read", get(svcGroups, "GetGroup", groupsPath, groupUID)),
	op("provider group delete", del(svcGroups, "DeleteGroup", groupsPath, groupUID)),
	op("provider identity read", get(svcIdentities, "GetIdentity", identitiesPath, identityUID)),
	op("provider identity delete", del(svcIdentities, "DeleteIdentity", identitiesPath, identityUID)),
	op("provider role read", get(svcRoles, "GetRole", rolesPath, customRoleUID)),
	op("provider role delete", del(svcRoles, "DeleteRole", rolesPath, customRoleUID)),
	op("provider binding read", get(svcBindings, "GetRoleBinding", bindingsPath, bindingUID)),
	op("provider binding delete", del(svcBindings, "DeleteRoleBinding", bindingsPath, bindingUID)),
	op("provider idp read", get(svcIdps, "GetIdentityProvider", idpsPath, idpUID)),
	op("provider idp delete", del(svcIdps, "DeleteIdentityProvider", idpsPath, idpUID)),
	op("provider invite read", get(svcInvites, "GetGroupInvite", invitesPath, inviteUID)),
	op("provider invite delete", del(svcInvites, "DeleteGroupInvite", invitesPath, inviteUID)),
	op("provider assoc read", get(svcAssocs, "GetAccountAssociation", assocsPath, groupUID)),
	op("provider assoc delete", del(svcAssocs, "DeleteAccountAssociation", assocsPath, groupUID)),

	// Provider lookups: one request per page of 200.
	op("provider lookup getGroup (uid)", get(svcGroups, "GetGroup", groupsPath, groupUID)),
	op("provider lookup getGroup (name)", list(svcGroups, "ListGroups", groupsPath,
		`{"uidp":{"childrenOf":"`+rootUID+`"},"name":"team","pageSize":200}`)),
	// No official filter by issuer or subject: the group's identities, matched by the lookup.
	op("provider lookup getIdentity (issuer, subject)", list(svcIdentities, "ListIdentities", identitiesPath,
		`{"uidp":{"childrenOf":"`+groupUID+`"},"pageSize":200}`)),
	op("provider lookup getRole (name)", list(svcRoles, "ListRoles", rolesPath, `{"name":"viewer","pageSize":200}`)),
	op("provider lookup getRoles (parentUid)", list(svcRoles, "ListRoles", rolesPath,
		`{"uidp":{"childrenOf":"`+groupUID+`"},"pageSize":200}`)),
	op("provider lookup getIdentityProvider (name)", list(svcIdps, "ListIdentityProviders", idpsPath,
		`{"uidp":{"childrenOf":"`+groupUID+`"},"name":"sso","pageSize":200}`)),
	op("provider lookup getRepo (name)", list(svcRepos, "ListRepos", "/registry/v2beta1/repos",
		`{"uidp":{"descendantsOf":"`+groupUID+`"},"name":"nginx","pageSize":200}`)),
	op("provider lookup getRepos (groupUid)", list(svcRepos, "ListRepos", "/registry/v2beta1/repos",
		`{"uidp":{"descendantsOf":"`+groupUID+`"},"pageSize":200}`)),
	op("provider lookup getTag (name)", list(svcTags, "ListTags", "/registry/v2beta1/tags",
		`{"uidp":{"childrenOf":"`+repoUID+`"},"name":"latest","pageSize":200}`)),
	op("provider lookup getTags", list(svcTags, "ListTags", "/registry/v2beta1/tags",
		`{"uidp":{"childrenOf":"`+repoUID+`"},"pageSize":200}`)),
	op("provider lookup getAdvisories (official filters)", list(svcAdvisories, "ListAdvisories", "/vulnerabilities/v2beta1/advisories",
		`{"artifactNames":["nginx"],"componentNames":["openssl"],"aliases":["CVE-2024-0001"],"query":"ssl","pageSize":200}`)),
}
