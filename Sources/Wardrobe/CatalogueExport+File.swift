import Foundation

extension CatalogueExport {
    /// Writes the export to the file at `path`, created or emptied first;
    /// returns the number of rows. A file that cannot be created or written
    /// is an error naming it and the reason.
    public func write(format: RowFormat, all: Bool, toFile path: String) throws -> Int {
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let file = FileHandle(forWritingAtPath: path) else {
            throw WardrobeError.invalidArgument("\(path): cannot create the file")
        }
        defer { try? file.close() }
        // The sink cannot throw: the first failure is kept and the rest of the rows skipped.
        var failure: (any Error)?
        let rows = try write(format: format, all: all) { chunk in
            guard failure == nil else { return }
            do { try file.write(contentsOf: chunk) } catch { failure = error }
        }
        if let failure {
            throw WardrobeError.invalidArgument("\(path): cannot write: \((failure as NSError).localizedDescription)")
        }
        return rows
    }
}
