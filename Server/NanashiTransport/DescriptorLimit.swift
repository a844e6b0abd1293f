#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's limit on open file descriptors, which caps its connections: each one is a
/// descriptor, and a default soft limit of 1,024 is reached by a thousand idle sockets.
public enum DescriptorLimit {
    /// Raises the soft limit to the hard limit (or `wanted`, if lower); returns the soft limit
    /// in force afterwards, or `nil` if it cannot be read.
    public static func raise(toAtMost wanted: Int) -> Int? {
        var limit = rlimit()
        guard getrlimit(resourceKind, &limit) == 0 else { return nil }
        let target = min(limit.rlim_max, rlim_t(max(0, wanted)))
        if target > limit.rlim_cur {
            var raised = limit
            raised.rlim_cur = target
            if setrlimit(resourceKind, &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur >= rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
    }

    /// The soft limit in force, or `nil` if it cannot be read.
    public static var current: Int? {
        var limit = rlimit()
        guard getrlimit(resourceKind, &limit) == 0 else { return nil }
        return limit.rlim_cur >= rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
    }

    /// Descriptors the process has open now (on Linux; `nil` elsewhere).
    package static var openCount: Int? {
        #if os(Linux)
            guard let directory = opendir("/proc/self/fd") else { return nil }
            defer { closedir(directory) }
            var count = 0
            while readdir(directory) != nil { count += 1 }
            // `.`, `..` and the directory's own descriptor.
            return max(0, count - 3)
        #else
            return nil
        #endif
    }

    #if canImport(Glibc)
        private static let resourceKind = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
        private static let resourceKind = RLIMIT_NOFILE
    #endif
}
