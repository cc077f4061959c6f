import BoardArchiveModel
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a crawl does with the pictures post bodies show (`media`, `media.*` settings; issue 28).
public struct MediaConfiguration: Sendable, Equatable {
    /// Whether pictures are fetched and kept (`--media on|off`, default on).
    public var enabled: Bool
    /// Hosts pictures may come from besides the API's own origin: `host` or `host:port`, or `*` for any host whose
    /// addresses are public. A host named here may be a private address (an intranet image server); one allowed only by
    /// `*` may not.
    public var allowedHosts: [String]
    /// The largest picture kept, in bytes (default 10 MiB).
    public var maxImageBytes: Int
    /// The most pictures kept of one post (default 20); the others stay as their text and address.
    public var maxImagesPerPost: Int
    /// The most bytes of pictures kept of one post (default 40 MiB).
    public var maxPostBytes: Int
    /// The wait before a picture that failed is tried again, doubled at each failure up to ``maxRetryDelay`` (default
    /// 1 hour, at most 30 days).
    public var retryDelay: Duration
    public var maxRetryDelay: Duration

    public init(
        enabled: Bool = true, allowedHosts: [String] = [], maxImageBytes: Int = 10 << 20, maxImagesPerPost: Int = 20,
        maxPostBytes: Int = 40 << 20, retryDelay: Duration = .seconds(3_600), maxRetryDelay: Duration = .seconds(30 * 86_400)
    ) {
        self.enabled = enabled
        self.allowedHosts = allowedHosts
        self.maxImageBytes = maxImageBytes
        self.maxImagesPerPost = maxImagesPerPost
        self.maxPostBytes = maxPostBytes
        self.retryDelay = retryDelay
        self.maxRetryDelay = maxRetryDelay
    }

    /// When a picture that failed `attempts` times in all is tried again.
    func nextAttempt(after attempts: Int, from date: Date) -> Date {
        let base = Double(retryDelay.components.seconds)
        let delay = min(Double(maxRetryDelay.components.seconds), base * pow(2, Double(max(0, attempts - 1))))
        return date.addingTimeInterval(delay)
    }
}

/// Decides, for each address and each redirect, whether a picture may be fetched and whether the token goes with it.
///
/// The API's own origin (scheme, host and port) is always allowed and is the only one the bearer token is sent to, and
/// only while every hop so far stayed there. Other hosts must be named in ``MediaConfiguration/allowedHosts``; with
/// `*`, any host is allowed whose addresses are all public (not loopback, private, link-local, shared or multicast).
struct MediaPolicy: Sendable {
    enum Decision: Sendable, Equatable {
        case fetch(sendsToken: Bool)
        case refuse(String)
    }

    let api: URL
    let allowedHosts: Set<String>
    let allowsAnyPublicHost: Bool
    /// Looks up a host's addresses (numeric strings); injectable for tests.
    let resolve: @Sendable (String) async -> [String]

    init(api: URL, configuration: MediaConfiguration, resolve: @escaping @Sendable (String) async -> [String] = MediaPolicy.systemResolve) {
        self.api = api
        let named = configuration.allowedHosts.map { $0.lowercased() }
        allowedHosts = Set(named.filter { $0 != "*" })
        allowsAnyPublicHost = named.contains("*")
        self.resolve = resolve
    }

    /// The decision for `url`, reached after `leftOrigin` (whether an earlier hop left the API's origin).
    func decide(_ url: URL, leftOrigin: Bool) async -> Decision {
        guard let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = url.host?.lowercased(), !host.isEmpty
        else { return .refuse("is not an http or https address") }
        if Self.origin(of: url) == Self.origin(of: api) { return .fetch(sendsToken: !leftOrigin) }
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        if allowedHosts.contains(host) || allowedHosts.contains("\(host):\(port)") { return .fetch(sendsToken: false) }
        guard allowsAnyPublicHost else { return .refuse("is on \(host), which is not the API's host and not in media.allow-hosts") }
        let addresses = await resolve(host)
        guard !addresses.isEmpty else { return .refuse("is on \(host), whose address cannot be found") }
        if let inside = addresses.first(where: Self.isInternal) {
            return .refuse("is on \(host), a loopback, private or link-local address (\(inside)); name the host in media.allow-hosts to allow it")
        }
        return .fetch(sendsToken: false)
    }

    /// Scheme, host and port (the default port when none is written), lower-cased.
    static func origin(of url: URL) -> String {
        let scheme = url.scheme?.lowercased() ?? ""
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(url.port ?? (scheme == "https" ? 443 : 80))"
    }

    /// Whether a numeric address is loopback, private, link-local, shared (CGNAT), unspecified, multicast or reserved.
    static func isInternal(_ address: String) -> Bool {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 {
            let value = UInt32(bigEndian: v4.s_addr)
            return isInternalV4(value)
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, address, &v6) == 1 else { return true }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        func embedded(at index: Int) -> UInt32 {
            UInt32(bytes[index]) << 24 | UInt32(bytes[index + 1]) << 16 | UInt32(bytes[index + 2]) << 8 | UInt32(bytes[index + 3])
        }
        if bytes[0..<12].allSatisfy({ $0 == 0 }) { return true }  // ::, ::1 and IPv4-compatible ::a.b.c.d (deprecated)
        // IPv4 inside IPv6 gets the IPv4 rules: mapped (::ffff:a.b.c.d), NAT64 (64:ff9b::a.b.c.d), 6to4 (2002:abcd:…).
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF { return isInternalV4(embedded(at: 12)) }
        if bytes[0..<12] == [0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] { return isInternalV4(embedded(at: 12)) }
        if bytes[0] == 0x20 && bytes[1] == 0x02 { return isInternalV4(embedded(at: 2)) }
        if bytes[0] & 0xFE == 0xFC { return true }  // fc00::/7 unique local
        if bytes[0] == 0xFE && bytes[1] & 0x80 == 0x80 { return true }  // fe80::/10 link-local, fec0::/10 site-local
        if bytes[0] == 0xFF { return true }  // multicast
        if bytes[0] == 0x20 && bytes[1] == 0x01 && bytes[2] == 0x0D && bytes[3] == 0xB8 { return true }  // 2001:db8::/32 documentation
        return false
    }

    private static func isInternalV4(_ value: UInt32) -> Bool {
        func within(_ network: UInt32, _ bits: UInt32) -> Bool { value >> (32 - bits) == network >> (32 - bits) }
        // This network, private, loopback, link-local, shared (CGNAT), IETF, documentation, benchmarking, 6to4 relay,
        // multicast and reserved.
        return within(0x0000_0000, 8) || within(0x0A00_0000, 8) || within(0x7F00_0000, 8) || within(0xA9FE_0000, 16)
            || within(0xAC10_0000, 12) || within(0xC0A8_0000, 16) || within(0x6440_0000, 10) || within(0xC000_0000, 24)
            || within(0xC000_0200, 24) || within(0xC633_6400, 24) || within(0xCB00_7100, 24) || within(0xC612_0000, 15)
            || within(0xC058_6300, 24) || value >= 0xE000_0000
    }

    /// The host's addresses from the system resolver (`getaddrinfo`), off the concurrency pool's threads.
    static let systemResolve: @Sendable (String) async -> [String] = { host in
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                var hints = addrinfo()
                hints.ai_family = AF_UNSPEC
                #if canImport(Glibc)
                    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
                #else
                    hints.ai_socktype = SOCK_STREAM
                #endif
                var list: UnsafeMutablePointer<addrinfo>?
                guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else {
                    continuation.resume(returning: [])
                    return
                }
                defer { freeaddrinfo(first) }
                var addresses: [String] = []
                var entry: UnsafeMutablePointer<addrinfo>? = first
                while let current = entry {
                    var buffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
                    if getnameinfo(current.pointee.ai_addr, current.pointee.ai_addrlen, &buffer, socklen_t(buffer.count), nil, 0, NI_NUMERICHOST) == 0
                    {
                        addresses.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
                    }
                    entry = current.pointee.ai_next
                }
                continuation.resume(returning: addresses)
            }
        }
    }
}
