import Foundation
import Imaging

/// Photos next to their prepped tensors, one row per photo, to look at before tuning a recipe.
struct ContactSheetTool {
    let recipes: [any PrepRecipe]
    let perFolder: Int

    /// The image files to show: for a folder, the first `perFolder` files of each folder below
    /// it (sorted by name); a file stands for itself.
    func files(in inputs: [String]) -> [String] {
        var files = [String]()
        let manager = FileManager.default
        for input in inputs {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: input, isDirectory: &isDirectory) else { fail("\(input): no such file or folder") }
            guard isDirectory.boolValue else { files.append(input); continue }
            var byFolder = [String: [String]]()
            for case let relative as String in manager.enumerator(atPath: input) ?? FileManager.DirectoryEnumerator() {
                let path = (input as NSString).appendingPathComponent(relative)
                var nested: ObjCBool = false
                if manager.fileExists(atPath: path, isDirectory: &nested), !nested.boolValue {
                    byFolder[(path as NSString).deletingLastPathComponent, default: []].append(path)
                }
            }
            for folder in byFolder.keys.sorted() {
                files += byFolder[folder]!.sorted().prefix(perFolder)
            }
        }
        return files
    }

    func write(inputs: [String], to out: String) throws {
        let processor = ImageProcessor()
        var rows = [(photo: Bitmap, tensors: [PreparedTensor])]()
        for file in files(in: inputs) {
            do {
                let bytes = try ImageFile.read(file)
                let image = try processor.load(bytes: bytes)
                rows.append((image.raster, recipes.map { $0.prepare(image.raster) }))
            } catch {
                FileHandle.standardError.write(Data("skipped \(error.path == nil ? error.naming(file) : error)\n".utf8))
            }
        }
        guard !rows.isEmpty else { fail("no image could be read") }
        let sheet = TensorImage.contactSheet(rows)
        try ImageFile.write(try PNGEncoder().encode(sheet), to: out)
        print("wrote \(out): \(rows.count) photos, columns: photo, \(recipes.map(\.identity).joined(separator: ", "))")
    }
}
