internal import Catalogue

/// What kind of failure an error of a use case is, for a caller that answers by kind rather
/// than with the error's own line: the server's pages, whose visitors must not read what the
/// lines carry for a person at a terminal (the catalogue's path, the SQL that failed, "run
/// the command again"). Each kind says what the caller can do about it; the line itself is
/// still the error's description, for a log.
public enum FailureKind: Sendable, Equatable {
    /// An image, run or model named is not there, or went while the use case ran (another
    /// process forgot it between a check and the write).
    case notFound
    /// The input means nothing here; the message says why, naming only what was given.
    case invalidInput(String)
    /// Another process held the catalogue's write lock past the busy timeout: nothing was
    /// written, and the same request may go through once that process is done.
    case busy
    /// The catalogue cannot be used now, for a reason outside the request (said without its
    /// path): its file is gone or was replaced, the disk is full, it cannot be written.
    case unavailable(String)
    /// The catalogue is damaged, or holds a value another program wrote: what is wrong and
    /// what to do, without the catalogue's path.
    case damaged(String)
    /// Anything else: a failing system, a model that cannot be read.
    case other

    public init(_ error: any Error) {
        switch error {
        case let error as WardrobeError:
            switch error {
            case .notFound: self = .notFound
            case .invalidArgument(let message): self = .invalidInput(message)
            case .catalogueMoved: self = .unavailable("the catalogue's file is no longer where it was opened")
            case .model, .noBundledModel, .catalogue, .system: self = .other
            }
        case let error as CatalogueError:
            switch error {
            case .notFound: self = .notFound
            case .invalidArgument(let message): self = .invalidInput(message)
            case .ambiguousHashPrefix: self = .invalidInput(error.description)
            case .sqlite where error.isBusy: self = .busy
            case .serverUnreachable: self = .unavailable("the catalogue's PostgreSQL server cannot be reached now")
            case .serverDenied(_, let reason): self = .unavailable("the catalogue's PostgreSQL role may not do this (\(reason))")
            case .serverCancelled(_, let reason):
                self = .unavailable("the catalogue's PostgreSQL server cancelled the statement (\(reason))")
            case .serverFull(_, let reason):
                self = .unavailable("the catalogue's PostgreSQL server would not open another connection, as the "
                                    + "connection limit of its role or database was reached (\(reason))")
            case .serverReadOnly: self = .unavailable("the catalogue's PostgreSQL database takes no writes")
            case .fileNotFound: self = .unavailable("the catalogue's file is no longer where it was opened")
            case .diskFull: self = .unavailable("the disk is full")
            case .logCutShort: self = .unavailable("the catalogue's write-ahead log was deleted or cut short under another process")
            case .logIndexDeleted: self = .unavailable("the catalogue's -shm was deleted under another process")
            case .logPageUnreadable: self = .unavailable("the catalogue's write-ahead log was replaced or damaged under another process")
            case .outOfResources: self = .unavailable("the server has as many files open as it may, or no memory left")
            case .readOnly: self = .unavailable("the catalogue cannot be written")
            case .damaged(_, let detail):
                self = .damaged("the catalogue is damaged (\(detail)); nothing more was written to it. "
                                + "'wardrobe check' says what is damaged; recover it or restore your last backup")
            case .strangeValue(_, let detail):
                self = .damaged("the catalogue holds a value wardrobe never stores (\(detail)), so another program "
                                + "changed it; nothing was changed. 'wardrobe check' lists every such value; "
                                + "undo that change or restore your last backup")
            default: self = .other
            }
        default:
            self = .other
        }
    }
}
