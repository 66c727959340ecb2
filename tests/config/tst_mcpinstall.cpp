// A new MCP server from outside Settings: the loopscope://mcp/install link a page offers, and the
// command line a user is shown before agreeing to it.

#include "agent/mcp/mcpserverinstall.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>
#include <QUrlQuery>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

QUrl linkWithConfig(const QByteArray &config, const QString &extraQuery = {})
{
    return QUrl(u"loopscope://mcp/install?config="_s + QString::fromLatin1(config) + extraQuery);
}

QByteArray base64url(const QByteArray &json)
{
    return json.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals);
}

} // namespace

class McpInstallTest : public QObject
{
    Q_OBJECT

private slots:
    void aLinkForACommandGivesTheServerItWouldRun()
    {
        const QJsonObject entry{
            {u"name"_s, u"files"_s},
            {u"command"_s, u"npx"_s},
            {u"args"_s, QJsonArray{u"-y"_s, u"@modelcontextprotocol/server-filesystem"_s, u"/tmp"_s}},
            {u"env"_s, QJsonObject{{u"DEBUG"_s, u"1"_s}}}};
        QString error;
        const auto installed = McpServerInstall::fromLink(McpServerInstall::link(entry), &error);
        QVERIFY2(installed, qPrintable(error));
        const McpServerConfig &server = installed->server;
        QCOMPARE(server.name, u"files"_s);
        QCOMPARE(server.transport, McpServerConfig::Transport::Stdio);
        QCOMPARE(McpServerInstall::shellCommand(server),
                 u"npx -y @modelcontextprotocol/server-filesystem /tmp"_s);
        QCOMPARE(server.environment.value(u"DEBUG"_s), u"1"_s);
        QCOMPARE(installed->notes, QStringList());
    }

    void aLinkForAnHttpServerKeepsItsHeaders()
    {
        const QJsonObject entry{{u"type"_s, u"http"_s},
                                {u"url"_s, u"https://mcp.example.com/mcp"_s},
                                {u"headers"_s, QJsonObject{{u"Authorization"_s, u"Bearer abc"_s}}}};
        QString error;
        // The name may come as name= instead of inside the JSON.
        const auto installed = McpServerInstall::fromLink(
            linkWithConfig(base64url(QJsonDocument(entry).toJson()), u"&name=remote%20one"_s), &error);
        QVERIFY2(installed, qPrintable(error));
        QCOMPARE(installed->server.name, u"remote one"_s);
        QCOMPARE(installed->server.transport, McpServerConfig::Transport::Http);
        QCOMPARE(installed->server.url, QUrl(u"https://mcp.example.com/mcp"_s));
        QCOMPARE(installed->server.secretHeaderNames(), QStringList{u"Authorization"_s});
    }

    void aLinkCannotApproveToolsOrComeSwitchedOff()
    {
        const QJsonObject entry{{u"name"_s, u"x"_s},
                                {u"command"_s, u"server"_s},
                                {u"disabled"_s, true},
                                {u"toolApproval"_s, QJsonObject{{u"delete_all"_s, u"always"_s}}},
                                {u"defaultApproval"_s, u"always"_s}};
        QString error;
        const auto installed = McpServerInstall::fromLink(McpServerInstall::link(entry), &error);
        QVERIFY2(installed, qPrintable(error));
        QVERIFY(installed->server.enabled);
        QCOMPARE(installed->server.defaultApproval, u"ask"_s);
        QVERIFY(installed->server.toolApproval.isEmpty());
    }

    void standardBase64WithPaddingIsTakenToo()
    {
        // A command of "~~~" gives a "+" in standard base64 (padded here) and a "-" in base64url.
        const QByteArray json = "{\"name\":\"a\",\"command\":\"~~~\"}";
        QVERIFY(json.toBase64().contains('+') || json.toBase64().contains('/'));
        QString error;
        QVERIFY2(McpServerInstall::fromLink(
                     linkWithConfig(QUrl::toPercentEncoding(QString::fromLatin1(json.toBase64()))), &error),
                 qPrintable(error));
        QVERIFY2(McpServerInstall::fromLink(linkWithConfig(base64url(json)), &error), qPrintable(error));
    }

    void aBadLinkSaysWhatIsWrong_data()
    {
        QTest::addColumn<QUrl>("link");
        QTest::addColumn<QString>("error");
        const auto config = [](const QByteArray &json) {
            return linkWithConfig(base64url(json));
        };
        QTest::newRow("another path")
            << QUrl(u"loopscope://mcp/remove?config=e30"_s) << u"not an MCP install link"_s;
        QTest::newRow("another scheme")
            << QUrl(u"https://mcp/install?config=e30"_s) << u"not an MCP install link"_s;
        QTest::newRow("no config") << QUrl(u"loopscope://mcp/install"_s) << u"config= is missing"_s;
        QTest::newRow("not base64") << linkWithConfig("***") << u"not base64url"_s;
        QTest::newRow("not JSON") << config("{name") << u"not valid JSON"_s;
        QTest::newRow("not an object") << config("[1]") << u"not a JSON object"_s;
        QTest::newRow("no name") << config("{\"command\":\"x\"}") << u"needs a name"_s;
        QTest::newRow("a name with a line break")
            << config("{\"name\":\"a\\nb\",\"command\":\"x\"}") << u"control characters"_s;
        QTest::newRow("neither command nor url")
            << config("{\"name\":\"a\"}") << u"neither a command nor a URL"_s;
        QTest::newRow("the old SSE transport")
            << config("{\"name\":\"a\",\"type\":\"sse\",\"url\":\"https://h/sse\"}") << u"HTTP+SSE"_s;
        QTest::newRow("a file url") << config(
            "{\"name\":\"a\",\"type\":\"http\",\"url\":\"file:///etc/passwd\"}")
                                    << u"not an http:// or https://"_s;
        QTest::newRow("a header with a line break")
            << config("{\"name\":\"a\",\"url\":\"https://h/\",\"headers\":{\"X-A\":\"1\\r\\nEvil: 2\"}}")
            << u"not a valid HTTP header"_s;
        QTest::newRow("a header name with a space")
            << config("{\"name\":\"a\",\"url\":\"https://h/\",\"headers\":{\"X A\":\"1\"}}")
            << u"not a valid HTTP header"_s;
        QTest::newRow("too long") << linkWithConfig(QByteArray(McpServerInstall::MaxLinkConfigBytes * 2, 'A'))
                                  << u"too long"_s;
    }

    void aBadLinkSaysWhatIsWrong()
    {
        QFETCH(QUrl, link);
        QFETCH(QString, error);
        QString said;
        QVERIFY(!McpServerInstall::fromLink(link, &said));
        QVERIFY2(said.contains(error), qPrintable(said));
    }

    void theShownCommandHidesNothing_data()
    {
        QTest::addColumn<QStringList>("commandLine");
        QTest::addColumn<QString>("shown");
        QTest::newRow("plain words") << QStringList{u"uvx"_s, u"mcp-server-git"_s, u"--repository=/src"_s}
                                     << u"uvx mcp-server-git --repository=/src"_s;
        QTest::newRow("spaces and quotes")
            << QStringList{u"sh"_s, u"-c"_s, u"echo 'hi'; rm x"_s} << u"sh -c 'echo '\\''hi'\\''; rm x'"_s;
        QTest::newRow("an empty argument") << QStringList{u"tool"_s, QString()} << u"tool ''"_s;
        QTest::newRow("a line break")
            << QStringList{u"tool"_s, u"safe\nrm -rf ~"_s} << u"tool $'safe\\u000arm -rf ~'"_s;
        QTest::newRow("a right-to-left override")
            << QStringList{u"tool"_s, u"file\u202Etxt.exe"_s} << u"tool $'file\\u202etxt.exe'"_s;
    }

    void theShownCommandHidesNothing()
    {
        QFETCH(QStringList, commandLine);
        QFETCH(QString, shown);
        QString error;
        const auto server = McpServerInstall::command(u"x"_s, commandLine, {}, &error);
        QVERIFY2(server, qPrintable(error));
        QCOMPARE(McpServerInstall::shellCommand(*server), shown);
    }
};

QTEST_GUILESS_MAIN(McpInstallTest)
#include "tst_mcpinstall.moc"
