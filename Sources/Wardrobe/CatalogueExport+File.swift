import Files
import Foundation

extension CatalogueExport {
    /// Writes the export to the file at `path` (see `OutputFile`): a new path or a
    /// regular file (also behind a symbolic link) is replaced whole, atomically,
    /// only once every row is written; a FIFO or character device is written as a
    /// stream; anything else is refused. Returns the number of rows.
    @discardableResult
    public func write(format: RowFormat, all: Bool, toFile path: String) throws -> Int {
        let file: OutputFile
        do {
            file = try OutputFile(path: path, sparing: CatalogueLocation.files(of: catalogue.path))
        } catch {
            throw WardrobeError.invalidArgument("\(path): cannot write the export there: \(error.reason)")
        }
        do {
            let rows = try write(format: format, all: all) { try file.write($0) }
            try file.finish()
            return rows
        } catch let error as RegularFile.Failure {
            throw WardrobeError.system("\(path): cannot write: \(error.reason)")
        }
    }
}
