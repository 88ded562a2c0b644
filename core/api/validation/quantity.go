package validation

// qstr is a canonical quantity printed bare, for errors whose bad value
// upstream passes as a Quantity (a Stringer) rather than its string.
type qstr string

func (s qstr) String() string { return string(s) }
