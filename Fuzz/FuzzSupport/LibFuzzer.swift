import CLibFuzzer
import Foundation

/// libFuzzer's driver behind a safe door: the only importer of `CLibFuzzer`, so no pointer leaves this file.
package enum LibFuzzer {
    /// The harness of this process (libFuzzer calls back through a C function, which cannot capture it).
    nonisolated(unsafe) private static var harness: ([UInt8]) -> Void = { _ in }

    /// Hands the process to libFuzzer (flags and corpus directories from the command line) and exits with its
    /// status; `harness` runs once per input and traps (`Check.that`) on a broken invariant.
    package static func run(_ harness: @escaping ([UInt8]) -> Void) -> Never {
        Self.harness = harness
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            LibFuzzer.harness(Array(UnsafeBufferPointer(start: data, count: size)))
            return 0
        }
        exit(status)
    }
}
