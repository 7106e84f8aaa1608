package vigil

import "fmt"

// Code is a stable error code of the clients, VIGIL_ERR_CLIENT_<KEY>: the same codes, with the same meanings, as the
// Node client's (docs/errors.md lists them).
type Code string

// The codes an Error carries.
const (
	CodeConfig           Code = "VIGIL_ERR_CLIENT_CONFIG"
	CodeAuth             Code = "VIGIL_ERR_CLIENT_AUTH"
	CodeBatchRefused     Code = "VIGIL_ERR_CLIENT_BATCH_REFUSED"
	CodeTooLarge         Code = "VIGIL_ERR_CLIENT_TOO_LARGE"
	CodeItemsRejected    Code = "VIGIL_ERR_CLIENT_ITEMS_REJECTED"
	CodeRetriesExhausted Code = "VIGIL_ERR_CLIENT_RETRIES_EXHAUSTED"
	CodeBufferFull       Code = "VIGIL_ERR_CLIENT_BUFFER_FULL"
	CodeNotDelivered     Code = "VIGIL_ERR_CLIENT_NOT_DELIVERED"
	CodeInvalidItem      Code = "VIGIL_ERR_CLIENT_INVALID_ITEM"
	CodeClosed           Code = "VIGIL_ERR_CLIENT_CLOSED"
	CodeInternal         Code = "VIGIL_ERR_CLIENT_INTERNAL"
)

// Error is what Options.OnError receives: never returned from a call the application makes on its LLM path.
type Error struct {
	Code    Code
	Message string
	// Items is how many trace items this error cost (dropped or rejected); 0 when none were lost.
	Items int
	// Status is the HTTP status Vigil answered, when the error is an answer.
	Status int
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Code, e.Message) }
