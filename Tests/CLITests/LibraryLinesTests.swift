import Foundation
import Testing
import Training

/// The HEVC and AV1 decoders under libheif print their own lines for damaged data
/// (`Error parsing OBU data`, `SPS error: ...`): 63 in 4,200 mutants once, lines that do not
/// start with `error:` and, with several workers, name no file. An import of damaged HEIC and
/// AVIF files writes one line per file it cannot read, naming it, and nothing else. (Run as a
/// child process: capturing the test runner's own standard error caught the lines of the
/// suites running beside it.)
@Suite struct LibraryLinesTests {
    static let fixtures = FileManager.default.currentDirectoryPath + "/Fixtures/formats/"

    @Test func damagedHEIFAndAVIFGiveOneLineEachAndNothingFromTheLibraries() throws {
        let folder = try PhotoFolder()
        defer { folder.remove() }
        var generator = SeededGenerator(seed: 7)
        var written = 0
        for name in ["orientation/avif-6.avif", "features/alpha.avif", "orientation/heic-6.heic", "features/alpha.heic"] {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.fixtures + name)))
            let base = URL(fileURLWithPath: name).lastPathComponent
            for round in 0..<400 {
                var damaged = bytes
                for _ in 0..<(1 + round % 4) {
                    damaged[generator.below(bytes.count)] ^= UInt8(1 + generator.below(255))
                }
                try folder.write(damaged, to: "photos/\(round)-\(base)")
                written += 1
            }
        }
        let photos = folder.path("photos")
        let result = try WardrobeProcess.run(["import", "--db", folder.path("c.sqlite"), "--jobs", "2", "--prep", "fashion-mnist",
                                              photos], errorsTo: folder.path("stderr.txt"))
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count > 100 && lines.count < written, "\(lines.count) of \(written) damaged files refused")
        let strays = lines.filter { !$0.hasPrefix("error: \(photos)/") }
        #expect(strays.isEmpty, "\(strays.count) lines name no file: \(strays.prefix(5))")
        let named = lines.compactMap { $0.dropFirst("error: \(photos)/".count).split(separator: ":").first }
        #expect(Set(named).count == named.count, "a file named twice")
    }
}
