import CommandLineKit
import Foundation
import Testing

/// A value JSON cannot hold (a number that is not finite) is one error line naming the
/// document and where in it the value is; JSONEncoder's own description
/// ("EncodingError.invalidValue(nan, Swift.EncodingError.Context(codingPath: ...") reached the user.
@Suite struct JSONOutputTests {
    struct Result: Encodable { var path: String; var confidence: Float }
    struct Report: Encodable { var results: [Result]; var accuracy: Double? }

    static let documents: [(value: Report, line: String)] = [
        (Report(results: [Result(path: "a.jpg", confidence: 0.5), Result(path: "b.jpg", confidence: .nan)], accuracy: 1),
         "cannot write the import's report as JSON: results[1].confidence is nan, not a finite number"),
        (Report(results: [], accuracy: -.infinity),
         "cannot write the import's report as JSON: accuracy is -inf, not a finite number"),
    ]

    @Test(arguments: 0..<documents.count)
    func aNumberThatIsNotFiniteIsOneLineNamingTheDocumentAndThePlace(document: Int) throws {
        let (value, line) = Self.documents[document]
        let console = Console(environment: [:])
        do {
            try console.json(value, of: "the import's report")
            Issue.record("written: \(value)")
        } catch {
            let said = String(describing: error)
            #expect(said == line, "\(said)")
            #expect(!said.contains("EncodingError") && !said.contains("\n"), "\(said)")
        }
        #expect(console.outputFailure == nil)
    }

    @Test func aValueAtTheTopIsNamedAsTheValue() throws {
        let console = Console(environment: [:])
        #expect(throws: JSONOutputError.self) { try console.json(Double.nan, of: "the accuracy") }
        do { try console.json(Double.infinity, of: "the accuracy") } catch {
            #expect("\(error)" == "cannot write the accuracy as JSON: the value is inf, not a finite number")
        }
    }
}
