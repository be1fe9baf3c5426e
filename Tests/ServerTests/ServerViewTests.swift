import Catalogue
import Foundation
import Imaging
import Testing
@testable import Wardrobe
import Server

/// `/original/ID?w=SIDE`, the larger view: made from the first recorded file of
/// the image that is still there with its SHA-256, re-encoded at one of a few
/// sides; a file changed since import is never shown as the image.
@Suite(.serialized, .enabled(if: ServedCatalogue.photos != nil, Comment(rawValue: ServedCatalogue.skipMessage)))
struct ServerViewTests {
    /// A catalogue of one photo recorded under two names, `a.jpg` (seen last, so first) and `b.jpg`.
    final class TwoNames {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("wardrobe-view-\(UUID().uuidString)")
        let photo: [UInt8]
        let other: [UInt8]
        let server: HTTPServer
        var client: RawHTTP { RawHTTP(port: server.port) }
        var a: String { root.appendingPathComponent("photos/a.jpg").path }
        var b: String { root.appendingPathComponent("photos/b.jpg").path }

        init() throws {
            let source = URL(fileURLWithPath: try #require(ServedCatalogue.photos))
            let files = FileManager.default
            let shirts = source.appendingPathComponent("shirt")
            let names = try files.contentsOfDirectory(atPath: shirts.path).sorted().filter { $0.hasSuffix(".jpg") }
            photo = try ImageFile.read(shirts.appendingPathComponent(names[0]).path)
            other = try ImageFile.read(shirts.appendingPathComponent(names[1]).path)
            try files.createDirectory(at: root.appendingPathComponent("photos"), withIntermediateDirectories: true)
            let path = root.appendingPathComponent("catalogue.sqlite").path
            let catalogue = try Catalogue(path: path)
            let classifier = try ClothingClassifier(modelAt: files.currentDirectoryPath + "/Models/clothing.aimodel")
            let importer = Importer(catalogue: catalogue, classifier: classifier)
            let folder = root.appendingPathComponent("photos")
            for name in ["b.jpg", "a.jpg"].map({ folder.appendingPathComponent($0).path }) {
                try ImageFile.write(photo, to: name)
                let options = ImportOptions(paths: [name], jobs: 1, recipe: PrepRecipes.default)
                _ = try importer.run(options, plan: try importer.plan(options), progress: { _ in }, failure: { _ in })
                Thread.sleep(forTimeInterval: 0.01)
            }
            server = try HTTPServer(host: "127.0.0.1", port: 0, handler: try WardrobeSite.over(path, readOnly: true))
        }

        deinit { try? FileManager.default.removeItem(at: root) }
    }

    /// The image page links each fixed side below the photo's longest side, then the photo at
    /// its own size: a view never enlarges, so a smaller photo offered at 960 and 1600 px was
    /// the same picture twice.
    @Test func theImagePageOffersTheSidesAPhotoHas() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("wardrobe-views-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let path = root.appendingPathComponent("catalogue.sqlite").path
        let catalogue = try Catalogue(path: path)
        let importer = Importer(catalogue: catalogue, classifier: try ClothingClassifier(
            modelAt: FileManager.default.currentDirectoryPath + "/Models/clothing.aimodel"))
        for (index, (width, height)) in [(1200, 900), (1500, 2000)].enumerated() {
            let name = root.appendingPathComponent("photo-\(index).jpg").path
            let photo = Bitmap(width: width, height: height, filledWith: [UInt8(40 * index + 60), 90, 150])
            try ImageFile.write(try JPEGEncoder(quality: 80).encode(photo), to: name)
            let options = ImportOptions(paths: [name], jobs: 1, recipe: PrepRecipes.default)
            _ = try importer.run(options, plan: try importer.plan(options), progress: { _ in }, failure: { _ in })
        }
        let server = try HTTPServer(host: "127.0.0.1", port: 0, handler: try WardrobeSite.over(path, readOnly: true))
        defer { server.stop() }
        func larger(_ id: Int) throws -> String {
            let html = try RawHTTP(port: server.port).get("/image/\(id)").text
            return String(try #require(html.components(separatedBy: "Larger: ").dropFirst().first).prefix { $0 != "(" })
        }
        #expect(try larger(1) == "<a href=\"/original/1?w=960\">960 px</a> · <a href=\"/original/1?w=1600\">1200 px, its own size</a> ")
        #expect(try larger(2) == "<a href=\"/original/2?w=960\">960 px</a> · <a href=\"/original/2?w=1600\">1600 px</a> ")
    }

    @Test func aViewIsAReencodedCopyAtAFixedSide() throws {
        let set = try TwoNames()
        let header = try ImageDecoder().header(of: set.photo)
        for side in [480, 960, 1600] {
            let response = try set.client.get("/original/1?w=\(side)")
            #expect(response.status == 200 && response.header("content-type") == "image/jpeg")
            #expect(response.header("cross-origin-resource-policy") == "same-origin")
            #expect(response.body != set.photo, "the file's own bytes were sent")
            let view = try ImageDecoder().decode(response.body)
            #expect(max(view.width, view.height) == min(side, max(header.width, header.height)))
            #expect(abs(Double(view.width) / Double(view.height) - Double(header.width) / Double(header.height)) < 0.02)
            let tag = try #require(response.header("etag"))
            #expect(try set.client.get("/original/1?w=\(side)", headers: ["If-None-Match": tag]).status == 304)
        }
        #expect(try set.client.get("/original/1").status == 200, "without w, the middle side")
        for bad in ["/original/1?w=500", "/original/1?w=", "/original/1?path=/etc/passwd", "/original/1?w=480&file=a.jpg"] {
            #expect(try set.client.get(bad).status == 400, "\(bad)")
        }
        #expect(try set.client.get("/original/2?w=480").status == 404)
        #expect(try set.client.get("/original/01?w=480").status == 404)
        #expect(try set.client.get("/original/..%2Fetc%2Fpasswd?w=480").status == 404)
    }

    @Test func aFileChangedSinceImportIsPassedOver() throws {
        let set = try TwoNames()
        let first = try set.client.get("/original/1?w=480")
        #expect(first.status == 200)
        // a.jpg now holds another photo: the view comes from b.jpg, still the image imported.
        try ImageFile.write(set.other, to: set.a)
        let fromB = try set.client.get("/original/1?w=480")
        #expect(fromB.status == 200)
        #expect(fromB.body == first.body, "the view changed with a file that is no longer this image")
        // Neither holds it: no view, and never the other photo; the page says why, where it
        // said "there is no page at /original/1" of an image that is there.
        try ImageFile.write(set.other, to: set.b)
        let none = try set.client.get("/original/1?w=480")
        #expect(none.status == 404)
        #expect(none.text.contains("Not found: image 1 has no file left as it was imported"), "\(none.text)")
        try FileManager.default.removeItem(atPath: set.b)
        #expect(try set.client.get("/original/1?w=480").status == 404)
        // Put back as it was: the view is there again.
        try ImageFile.write(set.photo, to: set.b)
        #expect(try set.client.get("/original/1?w=480").body == first.body)
    }
}
