/// How long a connection may wait: to connect, for a lock, for a statement; and how a dead peer is noticed.
public struct ConnectionOptions: Sendable, Hashable {
    /// Seconds to establish the connection (libpq's own `connect_timeout` in the conninfo wins when set).
    public var connectTimeout: Double
    /// Seconds a statement may wait for a lock (`lock_timeout`); 0 waits forever.
    public var lockTimeout: Double
    /// Seconds a statement may run (`statement_timeout`); 0 has no limit.
    public var statementTimeout: Double
    /// TCP keepalives: seconds idle before the first probe, seconds between probes, probes before giving up.
    public var keepaliveIdle: Int
    public var keepaliveInterval: Int
    public var keepaliveCount: Int

    public init(connectTimeout: Double = 10, lockTimeout: Double = 300, statementTimeout: Double = 0,
                keepaliveIdle: Int = 30, keepaliveInterval: Int = 10, keepaliveCount: Int = 3) {
        self.connectTimeout = connectTimeout
        self.lockTimeout = lockTimeout
        self.statementTimeout = statementTimeout
        self.keepaliveIdle = keepaliveIdle
        self.keepaliveInterval = keepaliveInterval
        self.keepaliveCount = keepaliveCount
    }

    /// The `SET` statements that apply the session's timeouts.
    var sessionSettings: String {
        "SET lock_timeout = \(Self.milliseconds(lockTimeout)); "
            + "SET statement_timeout = \(Self.milliseconds(statementTimeout))"
    }

    private static func milliseconds(_ seconds: Double) -> Int {
        Int((max(0, seconds) * 1000).rounded())
    }
}
