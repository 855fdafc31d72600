// The one table of class facts, read by both crates: `envelope-core`
// includes it in `model/class.rs`, whose `classes!` generates `ErrorClass`
// and every fact's `const fn`; `envelope-derive` includes it (through a
// symbolic link, `envelope-derive/src/classes.rs`) in its `class.rs`, whose
// `classes!` keeps the facts the derive checks at compile time (the owner,
// the default category and effect). A new class is a row here.
//
// The columns: the variant and its wire name, then who acts (`owner`),
// whether a person must act before anything else helps (`person`: `yes`,
// `no`, or `unless_tool` when a tool the failure names can do it instead;
// the one decision asks the user), whether the condition lifts by itself
// (`retryable`), the default category, the HTTP status, the default
// effect, the SEP-3313 tool-failure class, the operator log's level, the
// problem details title, the text's sentence when nothing more precise is
// known (`act`), the generic message and, for some, the next step the
// library mappings give. `Unknown` is last: only deserialization makes it.

classes! {
    /// The machine-stable class of an agent-facing error.
    ///
    /// A small taxonomy shared by every server that uses this crate, in the spirit
    /// of gRPC's canonical status codes: a model can branch on it without knowing
    /// the server. Domain-specific precision belongs in the envelope's `code`
    /// (`"LEASE_REQUIRED"`), not in new classes.
    ///
    /// Wire form: `SCREAMING_SNAKE_CASE` (`"OBJECT_NOT_FOUND"`). A class this
    /// version does not know deserializes to [`ErrorClass::Unknown`] instead of
    /// failing, so an older client can read a newer server's envelopes.
    pub enum ErrorClass;

    /// The arguments are malformed or fail validation (a missing field, a
    /// value out of range). The caller fixes the arguments.
    InvalidArguments = "INVALID_ARGUMENTS" {
        owner: Caller, person: no, retryable: no, category: Validation, http: 400, effect: Nothing,
        tool_failure: "capability", log: Info, title: "Invalid arguments",
        act: "Fix the arguments, then call this tool again.",
        message: "the arguments are invalid",
    }

    /// A query or script the caller sent does not parse or compile.
    SyntaxError = "SYNTAX_ERROR" {
        owner: Caller, person: no, retryable: no, category: Validation, http: 400, effect: Nothing,
        tool_failure: "capability", log: Info, title: "Syntax error",
        act: "Correct the query or script, then call this tool again.",
        message: "the request does not parse",
    }

    /// The caller's script or query parsed and ran, then failed on its own
    /// terms: a thrown exception, a failed assertion, a division by zero, a
    /// reference to a name the script never defined (pmcp-code-mode's
    /// `ExecutionError::RuntimeError`). The caller fixes its code.
    ///
    /// Caller-owned, unlike [`ErrorClass::Internal`], because the code was
    /// the caller's; distinct from [`ErrorClass::SyntaxError`] because it
    /// ran, so its default effect is [`Effect::Unknown`](crate::Effect):
    /// statements before the failing one may have taken effect. HTTP 422
    /// (Unprocessable Content): well formed, but it cannot be carried out.
    RuntimeError = "RUNTIME_ERROR" {
        owner: Caller, person: no, retryable: no, category: Validation, http: 422, effect: Unknown,
        tool_failure: "capability", log: Info, title: "Runtime error",
        act: "Fix the script, then run it again; statements before the failing one may have run.",
        message: "the script failed while it ran",
    }

    /// A named object (table, file, user, city) does not exist or is not
    /// visible. Pair it with near-miss names and an inspection tool.
    ObjectNotFound = "OBJECT_NOT_FOUND" {
        owner: Caller, person: no, retryable: no, category: NotFound, http: 404, effect: Nothing,
        tool_failure: "capability", log: Info, title: "Object not found",
        act: "Do not repeat this call unchanged: use a name that exists.",
        message: "the requested object does not exist",
    }

    /// The caller tried to create something that already exists.
    AlreadyExists = "ALREADY_EXISTS" {
        owner: Caller, person: no, retryable: no, category: Duplicate, http: 409, effect: Nothing,
        tool_failure: "capability", log: Info, title: "Already exists",
        act: "Do not create it again: it already exists, so use the existing one.",
        message: "the object already exists",
    }

    /// A prerequisite step is missing: connect first, acquire a lease, raise
    /// the session level.
    PreconditionFailed = "PRECONDITION_FAILED" {
        owner: Caller, person: no, retryable: no, category: WorkflowDependency, http: 412, effect: Nothing,
        tool_failure: "capability", log: Info, title: "Precondition failed",
        act: "Do the missing earlier step first, then make this call again.",
        message: "a required earlier step is missing",
    }

    /// The state changed under the caller (a stale version, a context that
    /// moved on); it must re-read before trying again.
    Conflict = "CONFLICT" {
        owner: Caller, person: no, retryable: no, category: WorkflowDependency, http: 409, effect: Nothing,
        tool_failure: "capability", log: Info, title: "Conflict",
        act: "Read the current state again, then make the call based on it.",
        message: "the state changed since it was read",
    }

    /// Credentials are missing, expired or invalid, and the caller can
    /// supply or renew them (call a login tool, pass a token). When only a
    /// person can (an expired single sign-on session, a second factor), use
    /// [`ErrorClass::InteractionRequired`].
    Unauthenticated = "UNAUTHENTICATED" {
        owner: Caller, person: unless_tool, retryable: no, category: WorkflowDependency, http: 401, effect: Nothing,
        tool_failure: "governance", log: Info, title: "Unauthenticated",
        act: "Do not repeat this call: ask the user to sign in again.",
        message: "authentication is required",
    }

    /// A person must act outside the conversation before the call can
    /// succeed: sign in again in a browser, approve a pending request,
    /// grant a permission, accept terms. Neither a changed call nor a retry
    /// helps; the model should tell the user what to do and stop.
    ///
    /// Its owner is [`Owner::User`]. The name is OpenID Connect's
    /// `interaction_required` error. HTTP 403.
    InteractionRequired = "INTERACTION_REQUIRED" {
        owner: User, person: yes, retryable: no, category: WorkflowDependency, http: 403, effect: Nothing,
        tool_failure: "governance", log: Info, title: "Interaction required",
        act: "Do not repeat this call: ask the user to do what is needed.",
        message: "a person must act before this call can succeed",
    }

    /// The caller is known but lacks the privilege for this operation.
    ///
    /// Its category is `WorkflowDependency`, not `Validation`: no argument
    /// the model could change fixes it; a privilege must be granted first
    /// (a person grants it: [`ErrorClass::InteractionRequired`] when the
    /// model can do nothing until then).
    InsufficientPrivilege = "INSUFFICIENT_PRIVILEGE" {
        owner: Caller, person: yes, retryable: no, category: WorkflowDependency, http: 403, effect: Nothing,
        tool_failure: "governance", log: Info, title: "Insufficient privilege",
        act: "Do not repeat this call: it is not permitted. Tell the user, or ask them for access.",
        message: "the caller lacks the privilege for this operation",
    }

    /// A policy refused the request before it was sent anywhere.
    PolicyDenied = "POLICY_DENIED" {
        owner: Caller, person: yes, retryable: no, category: Validation, http: 403, effect: Nothing,
        tool_failure: "governance", log: Info, title: "Denied by policy",
        act: "Do not repeat this call: a policy forbids it. Tell the user.",
        message: "a policy refused the request",
    }

    /// The operation or one of its options is not supported here.
    Unsupported = "UNSUPPORTED" {
        owner: Caller, person: no, retryable: no, category: Validation, http: 501, effect: Nothing,
        tool_failure: "capability", log: Info, title: "Unsupported",
        act: "Do not repeat this call unchanged: use a supported option or another tool.",
        message: "the operation is not supported",
    }

    /// The caller exceeded a rate limit (requests or tokens per unit of
    /// time); the same call succeeds once the window allows it, so wait for
    /// the retry hint (`retry_after_ms`) and repeat it unchanged.
    ///
    /// Also the class for an upstream API's rate limit (an HTTP 429 with
    /// `Retry-After` from the weather service behind the tool): the fix is
    /// the same, wait and repeat. Choose among the four classes that look
    /// alike by what lifts the refusal: a window that reopens after a wait
    /// is `RateLimited`; a budget that does not refill within the
    /// conversation (a daily allowance, credits) is
    /// [`ErrorClass::QuotaExceeded`]; the server's own capacity (a lock, a
    /// full pool), whatever the caller's rate, is [`ErrorClass::Busy`]; an
    /// upstream failure that says nothing about rates (a 503 without
    /// `Retry-After`) is [`ErrorClass::Transient`].
    ///
    /// Caller-owned because the caller sent too much, not because the server
    /// failed. gRPC and Google's AIP-193 report it as `RESOURCE_EXHAUSTED`
    /// with reason `RATE_LIMIT_EXCEEDED`; HTTP as 429 Too Many Requests
    /// (RFC 6585) with `Retry-After`.
    RateLimited = "RATE_LIMITED" {
        owner: Caller, person: no, retryable: yes, category: Technical, http: 429, effect: Nothing,
        tool_failure: "reliability", log: Info, title: "Rate limited",
        act: "Do not repeat this call now. Tell the user it failed.",
        message: "the rate limit was exceeded",
    }

    /// A quota or budget (a daily allowance, credits, a storage quota) is
    /// used up. Retrying will not help until it resets or is raised; the
    /// caller should stop and tell the user, or do without.
    ///
    /// gRPC and AIP-193 report it as `RESOURCE_EXHAUSTED` with reason
    /// `RESOURCE_QUOTA_EXCEEDED`, HTTP as 429. Not retryable, unlike
    /// [`ErrorClass::RateLimited`]; a known reset time may still go into
    /// `retry_after_ms`.
    QuotaExceeded = "QUOTA_EXCEEDED" {
        owner: Caller, person: yes, retryable: no, category: Technical, http: 429, effect: Nothing,
        tool_failure: "governance", log: Info, title: "Quota exceeded",
        act: "Do not repeat this call: the quota is used up. Tell the user.",
        message: "a quota is used up",
    }

    /// The server is overloaded and admission control turned the call away
    /// (lock contention, a full connection pool); retry later. A limit on
    /// what the caller may send is [`ErrorClass::RateLimited`] or
    /// [`ErrorClass::QuotaExceeded`] instead.
    ///
    /// HTTP 503 Service Unavailable, the status for a server that is
    /// temporarily unable to handle the request (RFC 9110, 15.6.4); 429 is
    /// left to the caller's own rate. Routine contention, so the operator
    /// log records it at `WARN`, not `ERROR`.
    Busy = "BUSY" {
        owner: Server, person: no, retryable: yes, category: Technical, http: 503, effect: Nothing,
        tool_failure: "reliability", log: Warn, title: "Server busy",
        act: "Do not repeat this call now. Tell the user it failed.",
        message: "the server is busy",
        step: "wait retry_after_ms milliseconds, then repeat the same call",
    }

    /// The operation ran past its deadline; it may succeed when retried.
    Timeout = "TIMEOUT" {
        owner: Server, person: no, retryable: yes, category: Technical, http: 504, effect: Unknown,
        tool_failure: "reliability", log: Error, title: "Timeout",
        act: "Do not repeat this call now. Tell the user it failed.",
        message: "the operation timed out",
    }

    /// A temporary failure behind the server; retrying is expected to help.
    Transient = "TRANSIENT" {
        owner: Server, person: no, retryable: yes, category: Technical, http: 503, effect: Unknown,
        tool_failure: "reliability", log: Error, title: "Temporary failure",
        act: "Do not repeat this call now. Tell the user it failed.",
        message: "a temporary failure occurred",
    }

    /// The server could not reach a backend it depends on.
    ConnectionFailed = "CONNECTION_FAILED" {
        owner: Server, person: no, retryable: yes, category: Technical, http: 502, effect: Unknown,
        tool_failure: "reliability", log: Error, title: "Connection failed",
        act: "Do not repeat this call now. Tell the user it failed.",
        message: "the server could not reach a service it depends on",
    }

    /// The caller cancelled the operation.
    Cancelled = "CANCELLED" {
        owner: Caller, person: yes, retryable: no, category: Technical, http: 499, effect: Unknown,
        tool_failure: "reliability", log: Info, title: "Cancelled",
        act: "Do not repeat this call: it was cancelled, and it may have taken effect. Ask the user whether to go on.",
        message: "the operation was cancelled",
    }

    /// An unexpected fault inside the server. Nothing the caller changes
    /// will fix it.
    Internal = "INTERNAL" {
        owner: Server, person: no, retryable: no, category: Technical, http: 500, effect: Unknown,
        tool_failure: "reliability", log: Error, title: "Internal error",
        act: "Do not repeat this call: it failed inside the server, and changing it will not help. Tell the user it failed.",
        message: "an internal error occurred; changing the call will not help",
    }

    /// A class sent by a newer peer that this version does not know. Never
    /// produced by the derive; it only appears when deserializing.
    #[serde(other)]
    Unknown = "UNKNOWN" {
        owner: Server, person: no, retryable: no, category: Technical, http: 500, effect: Unknown,
        tool_failure: "reliability", log: Error, title: "Unknown error",
        act: "Do not repeat this call. Tell the user it failed.",
        message: "an internal error occurred; changing the call will not help",
    }
}
