package reproduce

// quickDiffers names the claims whose --quick verdict the full report is
// known to contradict, with what the full report finds; --quick marks them
// in the report. TestQuickKeepsVerdicts keeps it in step with the
// measurements.
var quickDiffers = map[string]string{}
