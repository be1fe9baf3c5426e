import CommandLineKit
import Foundation

/// `--jobs`, for commands that spread their work over threads.
struct WorkOptions: ParsableArguments {
    @Option(name: "--jobs", value: "N", help: "Worker threads (default: the number of cores).", in: 1...256)
    var jobs = ProcessInfo.processInfo.activeProcessorCount
}
