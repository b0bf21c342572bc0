package wire

// Form and query parameter names. [assumed] unless marked [spec].
const (
	ParamEmail         = "email"
	ParamName          = "name"
	ParamPhone         = "phone"
	ParamMetadata      = "metadata"
	ParamSource        = "source"
	ParamDefaultSource = "default_source"
	ParamAmount        = "amount"
	ParamCurrency      = "currency"
	ParamCustomer      = "customer"
	ParamDescription   = "description"
	ParamCapture       = "capture"
	ParamStatus        = "status"
	ParamCreatedGTE    = "created[gte]"
	ParamCreatedGT     = "created[gt]"
	ParamCreatedLTE    = "created[lte]"
	ParamCreatedLT     = "created[lt]"
	ParamLimit         = "limit"
	ParamStartingAfter = "starting_after"
	ParamEndingBefore  = "ending_before"
	// ParamExpand is Stripe's expand[], which asks for a referenced
	// object in place of its id: no endpoint serves it. [own decision]
	ParamExpand = "expand"
)

// Parameters of the sandbox controls. [assumed]
const (
	ParamOutcome   = "outcome"
	ParamErrorRate = "error_rate"
	ParamDropRate  = "drop_rate"
	ParamLatencyMS = "latency_ms"
	ParamRateLimit = "rate_limit"
	ParamSeed      = "seed"
)

// MetadataParam is the form name of one metadata key: metadata[key]. [spec]
func MetadataParam(key string) string { return ParamMetadata + "[" + key + "]" }
