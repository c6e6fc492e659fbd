package registryscenario

import (
	"strings"
	"testing"

	"google.golang.org/grpc/codes"

	events "chainguard.dev/sdk/proto/chainguard/platform/events/v2beta1"
	common "chainguard.dev/sdk/proto/platform/common/v1"
	eventsv1 "chainguard.dev/sdk/proto/platform/events/v1"
	"pulumi-irm/contract/head/internal/scenario"
	"pulumi-irm/contract/internal/grpccall"
)

// TestSubscriptionsOverGRPC manages webhooks as the platform's tools do: HEAD's
// SubscriptionsService and the v1 Subscriptions service, over gRPC, on the same records.
func TestSubscriptionsOverGRPC(t *testing.T) {
	b, conn := scenario.Start(t)
	ctx := scenario.OwnerContext(t, b)
	v2 := events.NewClientsFromConnection(conn).SubscriptionsService()
	v1 := eventsv1.NewSubscriptionsClient(conn)

	made := grpccall.Must[*events.Subscription](t, "create subscription")(v2.CreateSubscription(ctx, &events.CreateSubscriptionRequest{
		Parent: b.RootGroupUID, Subscription: &events.Subscription{Sink: "https://hooks.example.com/v2"},
	}))
	if !strings.HasPrefix(made.GetUid(), b.RootGroupUID+"/") || made.GetSink() != "https://hooks.example.com/v2" {
		t.Fatalf("created subscription: %v", made)
	}
	_, err := v2.CreateSubscription(ctx, &events.CreateSubscriptionRequest{
		Parent: b.RootGroupUID, Subscription: &events.Subscription{Sink: "http://plain.example.com"},
	})
	grpccall.WantCode(t, "a sink without https", err, codes.InvalidArgument)
	got := grpccall.Must[*events.Subscription](t, "get subscription")(v2.GetSubscription(ctx, &events.GetSubscriptionRequest{Uid: made.GetUid()}))
	if got.GetSink() != made.GetSink() {
		t.Fatalf("read back: %v", got)
	}

	// The v1 service sees it, and what v1 makes v2beta1 sees.
	listed := grpccall.Must[*eventsv1.SubscriptionList](t, "v1 list")(v1.List(ctx, &eventsv1.SubscriptionFilter{Id: made.GetUid()}))
	if len(listed.GetItems()) != 1 || listed.GetItems()[0].GetSink() != made.GetSink() {
		t.Fatalf("v1 list by id: %v", listed.GetItems())
	}
	viaV1 := grpccall.Must[*eventsv1.Subscription](t, "v1 create")(v1.Create(ctx, &eventsv1.CreateSubscriptionRequest{
		ParentId: b.RootGroupUID, Subscription: &eventsv1.Subscription{Sink: "https://hooks.example.com/v1"},
	}))
	all := grpccall.Must[*events.ListSubscriptionsResponse](t, "list subscriptions")(v2.ListSubscriptions(ctx, &events.ListSubscriptionsRequest{
		Uidp: &common.UIDPFilter{ChildrenOf: b.RootGroupUID},
	}))
	if len(all.GetSubscriptions()) != 2 {
		t.Fatalf("v2beta1 list: %v", all.GetSubscriptions())
	}

	grpccall.Must[any](t, "v1 delete")(v1.Delete(ctx, &eventsv1.DeleteSubscriptionRequest{Id: viaV1.GetId()}))
	grpccall.Must[any](t, "delete subscription")(v2.DeleteSubscription(ctx, &events.DeleteSubscriptionRequest{Uid: made.GetUid()}))
	_, err = v2.GetSubscription(ctx, &events.GetSubscriptionRequest{Uid: made.GetUid()})
	grpccall.WantCode(t, "a deleted subscription", err, codes.NotFound)
	left := grpccall.Must[*eventsv1.SubscriptionList](t, "v1 list after")(v1.List(ctx, &eventsv1.SubscriptionFilter{Uidp: &common.UIDPFilter{ChildrenOf: b.RootGroupUID}}))
	if len(left.GetItems()) != 0 {
		t.Fatalf("left after both deletes: %v", left.GetItems())
	}
}
