#include "agent/tools/builtin/fetchurltool.h"

#include "agent/tools/builtin/htmltext.h"

#include <QHostAddress>
#include <QHostInfo>
#include <QJsonArray>
#include <QMimeDatabase>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QPromise>
#include <QSet>
#include <QStringDecoder>
#include <QThread>
#include <QTimer>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

struct FetchOutcome
{
    QString failure; // why there is no response; empty when there is one
    QUrl finalUrl;
    QList<QUrl> redirects; // each hop's target, in order
    int status = 0;
    QString reason;
    QByteArray contentType;
    qint64 declaredLength = -1;
    QByteArray body;
    bool truncated = false;
    bool described = false; // a type not shown: the body was not read
};

bool isTextual(const QByteArray &mimeType)
{
    return mimeType.startsWith("text/") || mimeType == "application/json" || mimeType.endsWith("+json")
           || mimeType == "application/xml" || mimeType.endsWith("+xml")
           || mimeType == "application/javascript" || mimeType == "application/x-javascript"
           || mimeType == "application/ecmascript" || mimeType == "application/x-ndjson"
           || mimeType == "application/yaml" || mimeType == "application/x-yaml"
           || mimeType == "application/toml";
}

QByteArray mimeTypeOf(const QByteArray &contentType)
{
    return contentType.split(';').constFirst().trimmed().toLower();
}

QByteArray charsetOf(const QByteArray &contentType)
{
    for (const QByteArray &part : contentType.split(';')) {
        const QByteArray trimmed = part.trimmed();
        if (trimmed.toLower().startsWith("charset="))
            return trimmed.mid(8).replace('"', "").replace('\'', "").trimmed();
    }
    return {};
}

/*
    One fetch on the manager's thread: resolve and check the host, request,
    follow redirects by hand (checking each hop), read up to the cap. It ends
    by handing its outcome to `done`, exactly once, and deleting itself; when
    the manager goes first, the outcome says so.
*/
class UrlFetch final : public QObject
{
public:
    using Done = std::function<void(const FetchOutcome &)>;

    UrlFetch(QNetworkAccessManager *network, qint64 maxBytes, FetchUrlTool::Options options, Done done)
        : QObject(network)
        , m_network(network)
        , m_maxBytes(maxBytes)
        , m_options(options)
        , m_done(std::move(done))
    {
        m_deadline.setSingleShot(true);
        connect(&m_deadline, &QTimer::timeout, this, [this] {
            fail(FetchUrlTool::tr("No complete response within %1 s.").arg(2 * m_options.timeoutMs / 1000));
        });
    }

    void start(const QUrl &url)
    {
        m_deadline.start(2 * m_options.timeoutMs);
        m_requestedUrl = url;
        m_outcome.finalUrl = url;
        check(url);
    }

    ~UrlFetch() override
    {
        if (!m_finished) // the manager was destroyed with the request under way
            m_done(withFailure(FetchUrlTool::tr("fetch_url lost its network access.")));
    }

    void cancel()
    {
        fail(FetchUrlTool::tr("The fetch of '%1' was cancelled.").arg(m_requestedUrl.toString()));
    }

private:
    void check(const QUrl &url)
    {
        if (url.scheme() != u"http" && url.scheme() != u"https") {
            fail(FetchUrlTool::tr("Only http and https URLs can be fetched, not '%1'.").arg(url.toString()));
            return;
        }
        if (url.host().isEmpty()) {
            fail(FetchUrlTool::tr("The URL '%1' has no host.").arg(url.toString()));
            return;
        }
        if (m_options.allowPrivateAddresses) {
            request(url);
            return;
        }
        const QString host = url.host();
        QHostInfo::lookupHost(host, this, [this, url, host](const QHostInfo &info) {
            if (m_finished)
                return;
            if (info.error() != QHostInfo::NoError || info.addresses().isEmpty()) {
                fail(FetchUrlTool::tr("The host '%1' could not be resolved: %2")
                         .arg(host, info.errorString()));
                return;
            }
            for (const QHostAddress &address : info.addresses()) {
                const bool refused = m_options.refusesAddress ? m_options.refusesAddress(address)
                                                              : FetchUrlTool::isPrivateAddress(address);
                if (refused) {
                    fail(FetchUrlTool::tr("Refused: '%1' resolves to %2, a loopback or private network "
                                          "address. fetch_url only reaches public addresses unless the user "
                                          "allows private ones in the settings.")
                             .arg(host, address.toString()));
                    return;
                }
            }
            request(url);
        });
    }

    void request(const QUrl &url)
    {
        m_outcome.finalUrl = url;
        QNetworkRequest request(url);
        request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
        request.setTransferTimeout(m_options.timeoutMs);
        request.setHeader(QNetworkRequest::UserAgentHeader, QByteArray("Loopscope fetch_url"));
        request.setRawHeader("Accept", "text/html, application/json;q=0.9, text/*;q=0.8, */*;q=0.5");
        m_reply = m_network->get(request);
        connect(m_reply, &QNetworkReply::readyRead, this, &UrlFetch::read);
        connect(m_reply, &QNetworkReply::finished, this, &UrlFetch::onFinished);
    }

    bool isRedirect() const
    {
        const int status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        return status >= 300 && status < 400 && m_reply->hasRawHeader("Location");
    }

    void read()
    {
        if (!m_reply || isRedirect())
            return;
        if (m_body.isEmpty() && !m_typeChecked) {
            m_typeChecked = true;
            const QByteArray type
                = mimeTypeOf(m_reply->header(QNetworkRequest::ContentTypeHeader).toByteArray());
            if (!type.isEmpty() && !isTextual(type) && type != "text/html") {
                m_outcome.described = true;
                takeResponse();
                succeed();
                return;
            }
        }
        m_body.append(m_reply->read(m_maxBytes + 1 - m_body.size()));
        if (m_body.size() > m_maxBytes) {
            m_body.truncate(m_maxBytes);
            m_outcome.truncated = true;
            takeResponse();
            succeed();
        }
    }

    void takeResponse()
    {
        m_outcome.status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
        m_outcome.reason = m_reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString();
        m_outcome.contentType = m_reply->header(QNetworkRequest::ContentTypeHeader).toByteArray();
        const QVariant length = m_reply->header(QNetworkRequest::ContentLengthHeader);
        m_outcome.declaredLength = length.isValid() ? length.toLongLong() : -1;
    }

    void onFinished()
    {
        if (m_finished || !m_reply)
            return;
        QNetworkReply *reply = std::exchange(m_reply, nullptr);
        reply->deleteLater();
        const QVariant status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
        if (!status.isValid()) {
            fail(FetchUrlTool::tr("The request to '%1' failed: %2")
                     .arg(reply->url().toString(), reply->errorString()));
            return;
        }
        const int code = status.toInt();
        if (code >= 300 && code < 400 && reply->hasRawHeader("Location")) {
            const QUrl target = reply->url().resolved(QUrl::fromEncoded(reply->rawHeader("Location")));
            m_outcome.redirects.append(target);
            if (target == reply->url() || m_visited.contains(target)) {
                fail(
                    FetchUrlTool::tr("Redirect loop: '%1' redirects back to '%2', which was already visited.")
                        .arg(reply->url().toString(), target.toString()));
                return;
            }
            if (m_outcome.redirects.size() > FetchUrlTool::MaxRedirects) {
                fail(FetchUrlTool::tr("Too many redirects: more than %1, the last to '%2'.")
                         .arg(FetchUrlTool::MaxRedirects)
                         .arg(target.toString()));
                return;
            }
            m_visited.insert(reply->url());
            m_body.clear();
            m_typeChecked = false;
            check(target); // the new host is checked like the first
            return;
        }
        m_reply = reply; // for read() and takeResponse() once more
        read();
        if (!m_finished) {
            takeResponse();
            succeed();
        }
        m_reply = nullptr;
    }

    void succeed()
    {
        m_outcome.body = m_body;
        finish();
    }

    void fail(const QString &why)
    {
        m_outcome.failure = why;
        finish();
    }

    void finish()
    {
        if (m_finished)
            return;
        m_finished = true;
        m_deadline.stop();
        if (m_reply) {
            QNetworkReply *reply = std::exchange(m_reply, nullptr);
            reply->disconnect(this);
            reply->abort();
            reply->deleteLater();
        }
        m_done(m_outcome);
        deleteLater();
    }

    FetchOutcome withFailure(const QString &why) const
    {
        FetchOutcome outcome = m_outcome;
        outcome.failure = why;
        return outcome;
    }

    QNetworkAccessManager *m_network;
    qint64 m_maxBytes;
    FetchUrlTool::Options m_options;
    Done m_done;
    QUrl m_requestedUrl;
    QNetworkReply *m_reply = nullptr;
    QByteArray m_body;
    bool m_typeChecked = false;
    bool m_finished = false;
    QSet<QUrl> m_visited;
    QTimer m_deadline;
    FetchOutcome m_outcome;
};

QString decodeText(const FetchOutcome &outcome, bool html)
{
    const QByteArray charset = charsetOf(outcome.contentType);
    if (!charset.isEmpty()) {
        if (const auto encoding = QStringConverter::encodingForName(charset.constData())) {
            QStringDecoder decoder(*encoding);
            return decoder(outcome.body);
        }
        const QByteArray lower = charset.toLower();
        if (lower == "windows-1252" || lower == "iso-8859-15" || lower == "us-ascii" || lower == "ascii")
            return QString::fromLatin1(outcome.body);
    }
    if (html) {
        QStringDecoder decoder = QStringDecoder::decoderForHtml(outcome.body);
        if (decoder.isValid())
            return decoder(outcome.body);
    }
    return QString::fromUtf8(outcome.body);
}

QString sizeText(qint64 bytes)
{
    if (bytes < 0)
        return FetchUrlTool::tr("of unknown size");
    if (bytes < 1024)
        return FetchUrlTool::tr("%1 bytes").arg(bytes);
    return FetchUrlTool::tr("%1 KiB (%2 bytes)").arg(QString::number(bytes / 1024.0, 'f', 1)).arg(bytes);
}

// What the model and the trace get of one fetch's outcome.
ToolResult resultOf(const QUrl &url, qint64 maxBytes, const FetchOutcome &outcome)
{
    QJsonArray redirects;
    for (const QUrl &hop : outcome.redirects)
        redirects.append(hop.toString());
    QJsonObject details{{u"url"_s, url.toString()},
                        {u"finalUrl"_s, outcome.finalUrl.toString()},
                        {u"redirects"_s, redirects}};
    if (!outcome.failure.isEmpty()) {
        details.insert(u"failure"_s, outcome.failure);
        ToolResult result = ToolResult::failure(outcome.failure);
        result.details = QJsonObject{{u"fetch"_s, details}};
        return result;
    }

    const QByteArray mimeType = mimeTypeOf(outcome.contentType);
    QString header = FetchUrlTool::tr("URL: %1\nStatus: %2 %3\n")
                         .arg(outcome.finalUrl.toString())
                         .arg(outcome.status)
                         .arg(outcome.reason);
    if (!outcome.redirects.isEmpty())
        header += FetchUrlTool::tr("Redirected from: %1 (redirects followed: %2)\n")
                      .arg(url.toString())
                      .arg(outcome.redirects.size());
    if (!outcome.contentType.isEmpty())
        header += FetchUrlTool::tr("Content-Type: %1\n").arg(QString::fromLatin1(outcome.contentType));

    QString body;
    if (outcome.described) {
        const QString type = QString::fromLatin1(mimeType);
        const QString comment = QMimeDatabase().mimeTypeForName(type).comment();
        body = FetchUrlTool::tr("[the response is %1%2, %3; fetch_url shows only text, HTML and JSON, so its "
                                "content is not "
                                "shown]")
                   .arg(type, comment.isEmpty() ? QString() : u" ("_s + comment + u')',
                        sizeText(outcome.declaredLength));
    } else {
        // No type given: text unless it looks binary.
        const bool binary = mimeType.isEmpty() && outcome.body.left(1024).contains('\0');
        if (binary) {
            body = FetchUrlTool::tr("[the response has no content type and looks binary, %1; not shown]")
                       .arg(sizeText(outcome.declaredLength >= 0 ? outcome.declaredLength
                                                                 : outcome.body.size()));
        } else if (mimeType == "text/html" || mimeType == "application/xhtml+xml") {
            const QString html = decodeText(outcome, true);
            if (const QString title = HtmlText::title(html); !title.isEmpty())
                header += FetchUrlTool::tr("Title: %1\n").arg(title);
            body = HtmlText::toText(html, outcome.finalUrl);
        } else {
            body = decodeText(outcome, false);
        }
        if (body.isEmpty())
            body = FetchUrlTool::tr("[empty response]");
        if (outcome.truncated)
            body += FetchUrlTool::tr(
                        "\n[truncated: only the first %1 KiB were read; ask for more with max_kb]")
                        .arg(maxBytes / 1024);
    }

    details.insert(u"status"_s, outcome.status);
    details.insert(u"contentType"_s, QString::fromLatin1(outcome.contentType));
    details.insert(u"bytesRead"_s, outcome.body.size());
    if (outcome.declaredLength >= 0)
        details.insert(u"contentLength"_s, outcome.declaredLength);
    details.insert(u"truncated"_s, outcome.truncated);
    ToolResult result;
    result.content = header + u'\n' + body;
    result.isError = outcome.status >= 400;
    result.details = QJsonObject{{u"fetch"_s, details}};
    return result;
}

} // namespace

FetchUrlTool::FetchUrlTool(QPointer<QNetworkAccessManager> network, Options options)
    : m_network(std::move(network))
    , m_options(options)
{}

ToolSchema FetchUrlTool::schema() const
{
    return {
        Name,
        u"Fetches a web page or other resource by HTTP(S) GET and returns its text: HTML reduced to "
        "readable text (headings, paragraphs, lists, links as text (url)), JSON and other text as it "
        "is; other types (images, PDFs, archives) are only described by type and size. At most max_kb "
        "KiB are read; up to %1 redirects are followed. The final URL and HTTP status come first. "
        "Addresses in private networks and this machine are refused unless the user allowed them. "
        "The user may be asked to approve the fetch first."_s.arg(MaxRedirects),
        QJsonObject{
            {u"type"_s, u"object"_s},
            {u"properties"_s,
             QJsonObject{
                 {u"url"_s, QJsonObject{{u"type"_s, u"string"_s},
                                        {u"description"_s,
                                         u"An http:// or https:// URL, e.g. \"https://example.com/\"."_s}}},
                 {u"max_kb"_s,
                  QJsonObject{{u"type"_s, u"integer"_s},
                              {u"minimum"_s, 1},
                              {u"maximum"_s, MaxMaxKb},
                              {u"description"_s,
                               u"The most KiB of the response to read. Default: %1."_s.arg(DefaultMaxKb)}}},
             }},
            {u"required"_s, QJsonArray{u"url"_s}},
            {u"additionalProperties"_s, false},
        }};
}

ToolBehaviour FetchUrlTool::behaviour() const
{
    ToolBehaviour behaviour;
    behaviour.asksFirst = true;
    // Its own deadline (twice the per-request timeout) comes first, with a clearer message.
    behaviour.timeoutMs = 2 * m_options.timeoutMs + 15'000;
    return behaviour;
}

bool FetchUrlTool::isPrivateAddress(const QHostAddress &address)
{
    if (address.isNull())
        return true;
    bool isV4 = false;
    const quint32 v4 = address.toIPv4Address(&isV4); // also for IPv4 mapped into IPv6
    if (isV4) {
        const auto in = [v4](quint32 network, int bits) {
            const quint32 mask = bits == 0 ? 0 : ~quint32(0) << (32 - bits);
            return (v4 & mask) == (network & mask);
        };
        return in(0x00000000, 8)     // 0.0.0.0/8, "this network"
               || in(0x0A000000, 8)  // 10/8
               || in(0x64400000, 10) // 100.64/10, CGNAT
               || in(0x7F000000, 8)  // 127/8, loopback
               || in(0xA9FE0000, 16) // 169.254/16, link-local
               || in(0xAC100000, 12) // 172.16/12
               || in(0xC0000000, 24) // 192.0.0/24, protocol assignments
               || in(0xC0A80000, 16) // 192.168/16
               || in(0xC6120000, 15) // 198.18/15, benchmarking
               || in(0xE0000000, 4)  // 224/4, multicast
               || in(0xF0000000, 4); // 240/4, reserved and broadcast
    }
    if (address.protocol() != QAbstractSocket::IPv6Protocol)
        return true; // neither IPv4 nor IPv6: not something to reach
    const Q_IPV6ADDR v6 = address.toIPv6Address();
    bool unspecified = true;
    for (int i = 0; i < 16; ++i)
        unspecified &= v6[i] == 0;
    if (unspecified || address.isLoopback())
        return true;
    // IPv4-compatible (::a.b.c.d, deprecated) and NAT64 (64:ff9b::/96) addresses: judge the IPv4 inside.
    const auto embeddedV4 = [&v6] {
        return QHostAddress(quint32(v6[12]) << 24 | quint32(v6[13]) << 16 | quint32(v6[14]) << 8 | v6[15]);
    };
    bool compatible = true;
    for (int i = 0; i < 12; ++i)
        compatible &= v6[i] == 0;
    if (compatible)
        return isPrivateAddress(embeddedV4());
    const bool nat64 = v6[0] == 0x00 && v6[1] == 0x64 && v6[2] == 0xff && v6[3] == 0x9b;
    if (nat64)
        return isPrivateAddress(embeddedV4());
    return (v6[0] & 0xFE) == 0xFC                       // fc00::/7, unique local
           || (v6[0] == 0xFE && (v6[1] & 0xC0) == 0x80) // fe80::/10, link-local
           || (v6[0] == 0xFE && (v6[1] & 0xC0) == 0xC0) // fec0::/10, site-local (deprecated)
           || v6[0] == 0xFF;                            // ff00::/8, multicast
}

// Called on the loop's thread, which must be the manager's: the fetch answers from its signals.
QFuture<ToolResult> FetchUrlTool::start(const QJsonObject &arguments,
                                        std::shared_ptr<ToolContext> context) const
{
    const QString text = arguments.value(u"url"_s).toString().trimmed();
    const QUrl url = QUrl::fromUserInput(text).isValid() && text.contains(u"://"_s) ? QUrl(text) : QUrl();
    if (!url.isValid() || (url.scheme() != u"http" && url.scheme() != u"https")) {
        return QtFuture::makeReadyFuture(ToolResult::failure(
            tr("'%1' is not an http:// or https:// URL; only those can be fetched.").arg(text)));
    }
    const qint64 maxBytes
        = qint64(qBound(1, arguments.value(u"max_kb"_s).toInt(DefaultMaxKb), MaxMaxKb)) * 1024;
    if (!m_network)
        return QtFuture::makeReadyFuture(ToolResult::failure(tr("fetch_url has no network access here.")));
    Q_ASSERT_X(m_network->thread() == QThread::currentThread(), "FetchUrlTool::start",
               "started on a thread other than its network manager's");

    const auto promise = std::make_shared<QPromise<ToolResult>>();
    promise->start();
    const QPointer<UrlFetch> fetch = new UrlFetch(m_network.data(), maxBytes, m_options,
                                                  [promise, url, maxBytes](const FetchOutcome &outcome) {
                                                      promise->addResult(resultOf(url, maxBytes, outcome));
                                                      promise->finish();
                                                  });
    context->onCancelled([fetch] {
        if (fetch)
            fetch->cancel();
    });
    fetch->start(url);
    return promise->future();
}

} // namespace Loopscope
