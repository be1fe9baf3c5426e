import Files
import Foundation

extension CatalogueExport {
    /// Ctrl-C, SIGTERM or SIGHUP stopped an export to a file (see `write(format:all:choosing:toFile:)`).
    public struct Interrupted: Error, CustomStringConvertible {
        /// What became of the output, in words: nothing written, or a stream cut short.
        public var description: String
    }

    /// Writes the export to the file at `path` (see `OutputFile`): a new path or a
    /// regular file (also behind a symbolic link) is replaced whole, atomically,
    /// only once every row is written; a FIFO or character device is written as a
    /// stream; anything else is refused. Returns the number of rows.
    /// Ctrl-C, SIGTERM or SIGHUP (`InterruptFlag`, installed by the caller) stops it between two
    /// pieces of output and throws `Interrupted`; the part written under a temporary name
    /// is removed, so the signal never ends the process with it left beside `path`.
    @discardableResult
    public func write(format: RowFormat, all: Bool, choosing: ImageListing.Options? = nil, toFile path: String) throws -> Int {
        // Stoppable from before the temporary file exists, so no signal can end the process
        // while it is there.
        try InterruptFlag.stoppable {
            let file: OutputFile
            do {
                file = try OutputFile(path: path, sparing: CatalogueLocation.files(of: catalogue.path))
            } catch let error as RegularFile.Failure {
                throw WardrobeError.invalidArgument("\(path): cannot write the export there: \(error.reason)")
            }
            let stopped = file.kind == .stream ? "the export to \(path) is incomplete" : "nothing was written to \(path)"
            // Asked before each piece is written and once more before the file gets its name.
            func stopIfAsked() throws {
                if InterruptFlag.isRaised { throw Interrupted(description: stopped) }
            }
            do {
                let rows = try write(format: format, all: all, choosing: choosing) { bytes in
                    try stopIfAsked()
                    try file.write(bytes)
                }
                try stopIfAsked()
                try file.finish()
                return rows
            } catch let error as RegularFile.Failure {
                throw WardrobeError.system("\(path): cannot write: \(error.reason)")
            }
        }
    }
}
