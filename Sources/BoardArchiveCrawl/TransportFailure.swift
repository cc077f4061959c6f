import AsyncHTTPClient
import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// Why a request got no response, in a few plain words for error messages ("connection refused").
///
/// The HTTP stack's own descriptions are meant for its developers (`connection reset (error set): Connection
/// refused) (errno: 111)`, BoringSSL's error stack); the common failures are named here, and anything else keeps a
/// bounded piece of its description.
enum TransportFailure {
    /// A short phrase for `error`, never including request headers; `redact` runs on any of the stack's own text
    /// before it is cut to 200 characters, so a cut can never leave the start of a secret behind.
    static func describe(_ error: any Error, redact: (String) -> String = { $0 }) -> String {
        func bounded(_ error: any Error) -> String { redact(String(describing: error)).prefix(200).description }
        switch error {
        case let error as HTTPClientError: return describe(error) ?? bounded(error)
        case let error as NIOConnectionError:
            if error.dnsAError != nil || error.dnsAAAAError != nil { return "the host name \(error.host) cannot be resolved" }
            return error.connectionErrors.first.map { describe($0.error) } ?? "the connection could not be made"
        case let error as IOError: return describe(errno: error.errnoCode)
        case is SocketAddressError.UnknownHost: return "the host name cannot be resolved"
        case is NIOSSLError, is NIOSSLExtraError, is BoringSSLError:
            let text = String(describing: error)
            if text.contains("CERTIFICATE_VERIFY_FAILED") || text.contains("failedToValidateHostname") {
                return "the server's TLS certificate was not accepted"
            }
            return "the TLS handshake failed (does the server speak https?)"
        case is NIOTooManyBytesError: return "the answer was larger than the body limit"
        case let error as ChannelError:
            if case .connectTimeout = error { return "connecting timed out" }
            return bounded(error)
        default: return bounded(error)
        }
    }

    /// A phrase when `error` says the answer itself is too large: a body over the size limit, or a compressed body
    /// that expands more than the decompression limit allows (a decompression bomb). The same answer would come
    /// again, so the client reports it as a body that breaks the contract (exit 65) instead of retrying it as a
    /// network failure; nil for any other error.
    static func oversizedBody(_ error: any Error) -> String? {
        if error is NIOTooManyBytesError { return "the answer is larger than the body limit" }
        // NIOHTTPCompression's DecompressionError (async-http-client's decompression limit), named by type because
        // the library does not depend on that module directly.
        if String(reflecting: type(of: error)).contains("DecompressionError") {
            return "the compressed answer expands beyond the decompression limit (20 times its size): a decompression bomb"
        }
        return nil
    }

    /// The phrase of a common `HTTPClientError`, or nil for the others.
    static func describe(_ error: HTTPClientError) -> String? {
        switch error {
        case .connectTimeout: return "connecting timed out"
        case .deadlineExceeded: return "no answer within the request timeout"
        case .readTimeout: return "the server stopped sending mid-answer (read timeout)"
        case .remoteConnectionClosed: return "the server closed the connection without answering"
        case .tlsHandshakeTimeout: return "the TLS handshake timed out"
        default: return nil
        }
    }

    private static func describe(errno code: CInt) -> String {
        switch code {
        case ECONNREFUSED: return "connection refused"
        case ECONNRESET: return "the connection was reset"
        case ETIMEDOUT: return "connecting timed out"
        case ENETUNREACH: return "the network is unreachable"
        case EHOSTUNREACH: return "the host is unreachable"
        default: return "network error: \(String(cString: strerror(code)))"
        }
    }
}
