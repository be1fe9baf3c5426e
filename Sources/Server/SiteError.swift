import Wardrobe

/// What a handler can answer instead of a page, and the one place an error of a use case
/// becomes one (`init(_:)`, by `FailureKind`); `WardrobeSite.answer` turns each into its
/// status and words. No answer carries an error's own line: it names the catalogue's path,
/// the SQL that failed or the command line's advice, which are for a terminal, not a page.
enum SiteError: Error {
    /// No page at this address (404).
    case notFound
    /// The image a form acts on or a page shows is not in the catalogue (404), or no longer
    /// is: which. "There is no page at /review" was said of `/review?at=` an image forgotten
    /// since the link was made, where the page is there and the image is not.
    case noImage(String)
    /// Of the images a form chose (`chosen` of them), these are not in the catalogue (404), and
    /// what that meant for the act (`outcome`: none was labelled). "One of the images chosen
    /// is not in the catalogue" left a person who picked 50 to find which, and whether the
    /// others were saved.
    case noImages([Int64], chosen: Int, outcome: String)
    /// The image is there, but none of its files is left as it was imported (404): no larger
    /// view can be made of it.
    case noFileLeft(Int64)
    case badRequest(String)
    /// Another process held the catalogue's write lock past the busy timeout (503 with
    /// Retry-After): nothing was written, and the same request may go through later.
    case busy
    /// The catalogue cannot be used now (503), for a reason outside the request, said
    /// without its path.
    case unavailable(String)
    /// As much of some costly work as the server takes at once is under way (503 with
    /// Retry-After): what is busy.
    case overloaded(String, retryAfterSeconds: Int)
    /// A change the request may not make, with the response that says so (see `allowStateChange`).
    case refused(HTTPResponse)
    /// The catalogue is damaged or holds what another program wrote (500): what is wrong and
    /// what to do, said to the person as the command line says it, without the path.
    case damaged(String)
    /// A failure the visitor can do nothing about (500); the error is for the server's log only.
    case failed(any Error)

    /// `error` as an answer: a `SiteError` as it is, any other error by its kind.
    init(_ error: any Error) {
        if let error = error as? SiteError {
            self = error
            return
        }
        switch FailureKind(error) {
        case .notFound: self = .notFound
        case .invalidInput(let message): self = .badRequest(message)
        case .busy: self = .busy
        case .unavailable(let reason): self = .unavailable(reason)
        case .damaged(let what): self = .damaged(what)
        case .other: self = .failed(error)
        }
    }

    /// `body`, a use case acting on the images a form names (`images`: "image 23"), with a
    /// failure of kind not-found said as that image not being there: between the handler's
    /// check and the write, another process may forget it.
    static func acting<T>(on images: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            if case .notFound = SiteError(error) { throw SiteError.noImage(images) }
            throw error
        }
    }

    /// `body`, a use case acting on several images a form chose (`images`), with a failure of
    /// kind not-found said as the images of those that are not there (looked for once it
    /// failed: another process may have forgotten them since the page was made), and what
    /// that meant for the act, `outcome`.
    static func acting<T>(on images: [Int64], outcome: String, in catalogue: OpenCatalogue, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            guard case .notFound = SiteError(error) else { throw error }
            let missing = try images.filter { try !catalogue.hasImage($0) }
            guard !missing.isEmpty else { throw SiteError.noImage("one of the images chosen") }
            throw SiteError.noImages(missing, chosen: images.count, outcome: outcome)
        }
    }

    /// A bad request naming the first parameter (in name order) that is not in `known`: a
    /// parameter a page does not take was passed over, so `/?q=shirt` showed every image as
    /// if it had been searched.
    static func refuseUnknown(_ query: [String: String], known: Set<String> = []) throws {
        guard let unknown = query.keys.sorted().first(where: { !known.contains($0) }) else { return }
        throw SiteError.badRequest(known.isEmpty ? "unknown parameter \(unknown) (this page takes none)"
                                   : "unknown parameter \(unknown) (known here: \(known.sorted().joined(separator: ", ")))")
    }

    /// An image's number as the site writes it: digits without leading zeros, so each image
    /// has one address (`/image/007` is not image 7).
    static func imageID(_ text: String) throws -> Int64 {
        guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ (48...57).contains($0) }),
              let value = Int64(text), String(value) == text else { throw SiteError.notFound }
        return value
    }
}
