package vigil

import "fmt"

// Error codes, as the TypeScript engine names them (policies/errors.ts, middleware/core/errors.ts).
const (
	errGlob          = "VIGIL_ERR_POLICY_GLOB"
	errJSONPath      = "VIGIL_ERR_POLICY_JSON_PATH"
	errLabel         = "VIGIL_ERR_POLICY_LABEL"
	errDuplicateRule = "VIGIL_ERR_POLICY_DUPLICATE_RULE"
	// ErrCodeConfig: the config file cannot be used (its message names file:line:column and the key path).
	ErrCodeConfig = "VIGIL_ERR_MIDDLEWARE_CONFIG"
	// ErrCodeOptions: an option is missing or out of range.
	ErrCodeOptions = "VIGIL_ERR_MIDDLEWARE_OPTIONS"
)

// Error is what New returns for a bad config file or bad options: Code is stable, Message says what to do.
type Error struct {
	Code    string
	Message string
}

func (e *Error) Error() string { return fmt.Sprintf("%s: %s", e.Code, e.Message) }

// policyErr is a problem in one rule, placed by its key path (`rules[2].match.path`).
type policyErr struct {
	code, where, message string
}

func (e *policyErr) Error() string { return e.where + ": " + e.message }

func policyError(code, where, message string) error {
	return &policyErr{code: code, where: where, message: message}
}
