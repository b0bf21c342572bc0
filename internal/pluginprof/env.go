package pluginprof

// EnvDir names the directory a benchprofile build writes its CPU
// profiles to.
const EnvDir = "PLUGIN_CPUPROFILE_DIR"
