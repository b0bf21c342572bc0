package wire

// DaysIn lets the external tests check daysIn against the calendar.
var DaysIn = daysIn
