/// Invariant checks of the harnesses: a broken one stops the process, which libFuzzer records as a crash.
package enum Check {
    /// Traps with `message` unless `condition` holds.
    package static func that(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError("fuzz invariant broken: \(message())") }
    }
}
