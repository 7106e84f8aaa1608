package vigil

import "context"

// Attributes apply to every trace recorded with a context that carries them (WithAttributes): by Client.Trace and by
// the calls the Transport records. A trace's own fields win; tags add up; metadata merges key by key.
type Attributes struct {
	Name           string
	UserID         string
	SessionID      string
	Tags           []string
	Metadata       map[string]any
	PromptTemplate *PromptTemplate
}

type attributesKey struct{}

// WithAttributes returns a context whose traces carry a, over the attributes ctx already carries.
func WithAttributes(ctx context.Context, a Attributes) context.Context {
	if outer := attributesOf(ctx); outer != nil {
		a = mergeAttributes(*outer, a)
	}
	return context.WithValue(ctx, attributesKey{}, &a)
}

// WithPrompt is WithAttributes for the prompt template alone.
func WithPrompt(ctx context.Context, t PromptTemplate) context.Context {
	return WithAttributes(ctx, Attributes{PromptTemplate: &t})
}

func attributesOf(ctx context.Context) *Attributes {
	if ctx == nil {
		return nil
	}
	a, _ := ctx.Value(attributesKey{}).(*Attributes)
	return a
}

func mergeAttributes(outer, inner Attributes) Attributes {
	t := Trace{Name: inner.Name, UserID: inner.UserID, SessionID: inner.SessionID, Tags: inner.Tags, Metadata: inner.Metadata,
		PromptTemplate: inner.PromptTemplate}.withAttributes(&outer)
	return Attributes{Name: t.Name, UserID: t.UserID, SessionID: t.SessionID, Tags: t.Tags, Metadata: t.Metadata, PromptTemplate: t.PromptTemplate}
}
