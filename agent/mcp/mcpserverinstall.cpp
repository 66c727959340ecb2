#include "agent/mcp/mcpserverinstall.h"

#include "agent/mcp/mcpconfigimport.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrlQuery>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace Loopscope {

namespace {

struct Tr
{
    Q_DECLARE_TR_FUNCTIONS(Loopscope::McpServerInstall)
};

constexpr qsizetype MaxNameLength = 100;

// A character that could make a shown command look like something else it is not.
bool hidesText(QChar c)
{
    return c.category() == QChar::Other_Control || c.category() == QChar::Other_Format
           || c.category() == QChar::Separator_Line || c.category() == QChar::Separator_Paragraph;
}

bool failWith(QString *error, const QString &text)
{
    if (error)
        *error = text;
    return false;
}

// RFC 9110 token characters: what a header name may hold.
bool isHeaderName(const QString &name)
{
    if (name.isEmpty())
        return false;
    for (const QChar c : name) {
        if (c.unicode() > 0x7e || !(c.isLetterOrNumber() || u"!#$%&'*+-.^_`|~"_s.contains(c)))
            return false;
    }
    return true;
}

// Settings' own check, so that what is added here is what Settings can save and read back.
std::optional<McpServerConfig> checked(const McpServerConfig &server, QString *error)
{
    QString problem;
    if (!McpServerConfig::fromJson(server.toJson(), &problem)) {
        failWith(error, problem);
        return std::nullopt;
    }
    return server;
}

std::optional<QByteArray> decodeBase64(const QByteArray &text)
{
    // base64url as the link format says; the standard alphabet is taken too, with or without padding.
    for (const auto options : {QByteArray::Base64UrlEncoding, QByteArray::Base64Encoding}) {
        auto decoded
            = QByteArray::fromBase64Encoding(text, options | QByteArray::AbortOnBase64DecodingErrors);
        if (decoded)
            return *decoded;
    }
    return std::nullopt;
}

} // namespace

QString McpServerInstall::nameProblem(const QString &name)
{
    const QString trimmed = name.trimmed();
    if (trimmed.isEmpty())
        return Tr::tr("An MCP server needs a name.");
    if (trimmed.size() > MaxNameLength)
        return Tr::tr("An MCP server’s name may hold at most %1 characters.").arg(MaxNameLength);
    if (std::any_of(trimmed.cbegin(), trimmed.cend(), hidesText))
        return Tr::tr("An MCP server’s name may not hold control characters.");
    return {};
}

std::optional<McpServerConfig> McpServerInstall::command(const QString &name, const QStringList &commandLine,
                                                         const QStringList &environment, QString *error)
{
    if (const QString problem = nameProblem(name); !problem.isEmpty()) {
        failWith(error, problem);
        return std::nullopt;
    }
    McpServerConfig server;
    server.name = name.trimmed();
    server.transport = McpServerConfig::Transport::Stdio;
    if (commandLine.isEmpty() || commandLine.constFirst().trimmed().isEmpty()) {
        failWith(error, Tr::tr("The MCP server “%1” needs a command to start.").arg(server.name));
        return std::nullopt;
    }
    server.command = commandLine.constFirst();
    server.arguments = commandLine.mid(1);
    for (const QString &assignment : environment) {
        const qsizetype at = assignment.indexOf(u'=');
        const QString variable = at > 0 ? assignment.left(at) : QString();
        if (variable.isEmpty() || variable.contains(u' ')) {
            failWith(error, Tr::tr("The environment variable “%1” is not KEY=VALUE.").arg(assignment));
            return std::nullopt;
        }
        if (server.environment.contains(variable)) {
            failWith(error, Tr::tr("The environment variable %1 is given twice.").arg(variable));
            return std::nullopt;
        }
        server.environment.insert(variable, assignment.mid(at + 1));
    }
    return checked(server, error);
}

std::optional<McpServerConfig> McpServerInstall::http(const QString &name, const QString &url,
                                                      const QStringList &headers, QString *error)
{
    if (const QString problem = nameProblem(name); !problem.isEmpty()) {
        failWith(error, problem);
        return std::nullopt;
    }
    McpServerConfig server;
    server.name = name.trimmed();
    server.transport = McpServerConfig::Transport::Http;
    server.url = QUrl(url.trimmed(), QUrl::StrictMode);
    if (!server.url.isValid() || server.url.host().isEmpty()
        || (server.url.scheme() != "http"_L1 && server.url.scheme() != "https"_L1)) {
        failWith(
            error,
            Tr::tr("The MCP server “%1” needs an http:// or https:// URL, not “%2”.").arg(server.name, url));
        return std::nullopt;
    }
    for (const QString &line : headers) {
        const qsizetype at = line.indexOf(u':');
        const QString header = at > 0 ? line.left(at).trimmed() : QString();
        const QString value = line.mid(at + 1).trimmed();
        if (!isHeaderName(header) || value.isEmpty()) {
            // The value may be a secret: only the name is repeated.
            failWith(error, header.isEmpty() ? Tr::tr("A header is not “Name: value”.")
                                             : Tr::tr("The header “%1” is not “Name: value”.").arg(header));
            return std::nullopt;
        }
        if (std::any_of(value.cbegin(), value.cend(), hidesText)) {
            failWith(error, Tr::tr("The header %1 holds control characters.").arg(header));
            return std::nullopt;
        }
        for (auto it = server.headers.cbegin(); it != server.headers.cend(); ++it) {
            if (it.key().compare(header, Qt::CaseInsensitive) == 0) {
                failWith(error, Tr::tr("The header %1 is given twice.").arg(header));
                return std::nullopt;
            }
        }
        server.headers.insert(header, value);
    }
    return checked(server, error);
}

bool McpServerInstall::isInstallLink(const QUrl &url)
{
    return url.scheme() == "loopscope"_L1 && url.host() == "mcp"_L1;
}

std::optional<McpServerInstall::FromLink> McpServerInstall::fromLink(const QUrl &link, QString *error)
{
    const auto fail = [error](const QString &text) {
        failWith(error, text);
        return std::optional<FromLink>();
    };
    if (!isInstallLink(link) || link.path() != "/install"_L1)
        return fail(Tr::tr("The link is not an MCP install link (loopscope://mcp/install?config=…)."));
    const QUrlQuery query(link);
    const QByteArray encoded = query.queryItemValue(u"config"_s, QUrl::FullyDecoded).toLatin1();
    if (encoded.isEmpty())
        return fail(Tr::tr("The MCP install link carries no server (its config= is missing)."));
    if (encoded.size() > MaxLinkConfigBytes * 4 / 3 + 4)
        return fail(Tr::tr("The MCP install link is too long (at most %1 KiB of JSON).")
                        .arg(MaxLinkConfigBytes / 1024));
    const std::optional<QByteArray> json = decodeBase64(encoded);
    if (!json)
        return fail(Tr::tr("The MCP install link’s config is not base64url."));
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(*json, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return fail(Tr::tr("The MCP install link’s config is not valid JSON: %1 at offset %2.")
                        .arg(parseError.errorString())
                        .arg(parseError.offset));
    if (!document.isObject())
        return fail(Tr::tr("The MCP install link’s config is not a JSON object."));
    QJsonObject entry = document.object();
    const QString name = entry.value("name"_L1).toString(query.queryItemValue(u"name"_s, QUrl::FullyDecoded));
    if (const QString problem = nameProblem(name); !problem.isEmpty())
        return fail(problem);
    entry.remove("name"_L1);
    entry.remove("disabled"_L1); // the user is asked to add it: it is added on

    // The same reading as an import of .mcp.json, so a link means what that file would.
    const QJsonObject file{{u"mcpServers"_s, QJsonObject{{name.trimmed(), entry}}}};
    McpConfigImport imported
        = McpConfigImport::fromJson(QJsonDocument(file).toJson(QJsonDocument::Compact), Tr::tr("the link"));
    if (!imported.error.isEmpty())
        return fail(imported.error);
    if (imported.servers.size() != 1)
        return fail(imported.notes.join(u' '));
    QString problem;
    const std::optional<McpServerConfig> server = checked(imported.servers.constFirst(), &problem);
    if (!server)
        return fail(problem);
    for (auto it = server->headers.cbegin(); it != server->headers.cend(); ++it) {
        // A line break in a header would smuggle another header into every request.
        if (!isHeaderName(it.key()) || std::any_of(it.value().cbegin(), it.value().cend(), hidesText))
            return fail(Tr::tr("The MCP install link’s header “%1” is not a valid HTTP header.")
                            .arg(McpServerInstall::shellWord(it.key())));
    }
    QStringList texts = server->arguments;
    texts.append(server->command);
    texts += server->headers.values();
    for (const QString &text : std::as_const(texts)) {
        if (std::any_of(text.cbegin(), text.cend(), [](QChar c) { return c == u'\n' || c == u'\r'; }))
            imported.notes.append(Tr::tr("Its command holds line breaks: check what it runs."));
    }
    imported.notes.removeDuplicates();
    return FromLink{*server, imported.notes};
}

QUrl McpServerInstall::link(const QJsonObject &entry)
{
    QUrl url(u"loopscope://mcp/install"_s);
    QUrlQuery query;
    query.addQueryItem(u"config"_s, QString::fromLatin1(QJsonDocument(entry)
                                                            .toJson(QJsonDocument::Compact)
                                                            .toBase64(QByteArray::Base64UrlEncoding
                                                                      | QByteArray::OmitTrailingEquals)));
    url.setQuery(query);
    return url;
}

QString McpServerInstall::shellWord(const QString &word)
{
    if (word.isEmpty())
        return u"''"_s;
    if (std::any_of(word.cbegin(), word.cend(), hidesText)) {
        // $'…' with escapes: every hidden character is seen for what it is.
        QString shown = u"$'"_s;
        for (const QChar c : word) {
            if (hidesText(c))
                shown += u"\\u%1"_s.arg(uint(c.unicode()), 4, 16, QChar(u'0'));
            else if (c == u'\'' || c == u'\\')
                shown += u'\\' + c;
            else
                shown += c;
        }
        return shown + u'\'';
    }
    const bool plain = std::all_of(word.cbegin(), word.cend(), [](QChar c) {
        return (c.unicode() < 0x80 && c.isLetterOrNumber()) || u"@%+=:,./_-"_s.contains(c);
    });
    if (plain)
        return word;
    QString shown = word;
    return u'\'' + shown.replace(u"'"_s, u"'\\''"_s) + u'\'';
}

QString McpServerInstall::shellCommand(const McpServerConfig &server)
{
    QStringList words{shellWord(server.command)};
    for (const QString &argument : server.arguments)
        words.append(shellWord(argument));
    return words.join(u' ');
}

} // namespace Loopscope
