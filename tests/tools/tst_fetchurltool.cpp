#include "agent/tools/builtin/fetchurltool.h"
#include "agent/tools/builtin/htmltext.h"
#include "tests/support/fakehttpserver.h"

#include <QElapsedTimer>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QTest>

using namespace Loopscope;
using namespace Qt::StringLiterals;

class FetchUrlToolTest : public QObject
{
    Q_OBJECT

private:
    FakeHttpServer m_server;
    QNetworkAccessManager m_network;

    QString url(const QString &path) const { return m_server.baseUrl().toString() + path; }

    static FetchUrlTool::Options allowingLoopback()
    {
        FetchUrlTool::Options options;
        options.allowPrivateAddresses = true;
        options.timeoutMs = 5000;
        return options;
    }

    // Starts the tool on this thread, as the loop does, and serves the manager and the server until it
    // answers.
    ToolResult fetch(const FetchUrlTool &tool, const QJsonObject &arguments)
    {
        QFuture<ToolResult> future = tool.start(arguments, std::make_shared<ToolContext>());
        if (!QTest::qWaitFor([&future] { return future.isFinished(); }, 20'000))
            return ToolResult::failure(u"the test gave up waiting"_s);
        return future.result();
    }

    ToolResult fetch(const QString &path, int maxKb = 0)
    {
        const FetchUrlTool tool(&m_network, allowingLoopback());
        QJsonObject arguments{{u"url"_s, url(path)}};
        if (maxKb > 0)
            arguments.insert(u"max_kb"_s, maxKb);
        return fetch(tool, arguments);
    }

    void serve(const QHash<QByteArray, std::function<void(HttpExchange &)>> &routes)
    {
        m_server.setHandler([routes](const HttpRequestRecord &request, HttpExchange &exchange) {
            const auto route = routes.constFind(request.path);
            if (route == routes.cend())
                exchange.respond(404, {{"Content-Type", "text/plain"}}, "no such page");
            else
                (*route)(exchange);
        });
    }

private slots:
    void initTestCase() { QVERIFY(m_server.listen()); }
    void init() { m_server.setHandler({}); }

    void anHtmlPageIsReducedToReadableText()
    {
        serve({{"/page", [](HttpExchange &exchange) {
                    exchange.respond(
                        200, {{"Content-Type", "text/html; charset=utf-8"}},
                        "<!DOCTYPE html><html><head><title>Caf&eacute; &amp; Co</title>"
                        "<style>body { color: red }</style><script>alert('x')</script></head>"
                        "<body><nav><a href=\"/\">Home</a></nav>"
                        "<h1>Menu</h1><p>Fresh   coffee,\n  every day.</p>"
                        "<noscript>Enable JavaScript</noscript>"
                        "<ul><li>Espresso &ndash; 2&euro;</li><li><a href=\"tea.html\">Tea</a></li></ul>"
                        "<h2>Contact</h2><p>Call&nbsp;us &lt;now&gt;<br>or write.</p>"
                        "<!-- a comment --></body></html>");
                }}});

        const ToolResult result = fetch(u"/page"_s);

        QVERIFY2(!result.isError, qPrintable(result.content));
        const QString expected = u"URL: %1\nStatus: 200 OK\nContent-Type: text/html; charset=utf-8\n"
                                 "Title: Café & Co\n\n"
                                 "Home (%2/)\n\n# Menu\n\nFresh coffee, every day.\n\n- Espresso – 2€\n"
                                 "- Tea (%2/tea.html)\n\n## Contact\n\nCall us <now>\nor write."_s.arg(
                                     url(u"/page"_s), m_server.baseUrl().toString());
        QCOMPARE(result.content, expected);
        const QJsonObject details = result.details.value(u"fetch"_s).toObject();
        QCOMPARE(details.value(u"status"_s).toInt(), 200);
        QCOMPARE(details.value(u"finalUrl"_s).toString(), url(u"/page"_s));
    }

    void jsonIsReturnedAsItIs()
    {
        serve({{"/api", [](HttpExchange &exchange) {
                    exchange.respond(200, {{"Content-Type", "application/json"}}, R"({"answer": 42})");
                }}});

        const ToolResult result = fetch(u"/api"_s);

        QVERIFY(!result.isError);
        QVERIFY2(result.content.endsWith(u"Content-Type: application/json\n\n{\"answer\": 42}"_s),
                 qPrintable(result.content));
    }

    void aBinaryTypeIsDescribedNotDumped()
    {
        serve({{"/image.png", [](HttpExchange &exchange) {
                    exchange.respond(200, {{"Content-Type", "image/png"}},
                                     "\x89PNG" + QByteArray(4996, '\x01'));
                }}});

        const ToolResult result = fetch(u"/image.png"_s);

        QVERIFY(!result.isError);
        QVERIFY2(result.content.contains(u"the response is image/png"_s), qPrintable(result.content));
        QVERIFY2(result.content.contains(u"5000 bytes"_s), qPrintable(result.content));
        QVERIFY(!result.content.contains(u"PNG\u0001"_s));
        QVERIFY(result.content.size() < 600);
    }

    void aLargeResponseIsCutAtMaxKbAndSaysSo()
    {
        serve({{"/big", [](HttpExchange &exchange) {
                    exchange.respond(200, {{"Content-Type", "text/plain"}}, QByteArray(100 * 1024, 'a'));
                }}});

        const ToolResult result = fetch(u"/big"_s, 2);

        QVERIFY(!result.isError);
        QVERIFY2(result.content.contains(u"[truncated: only the first 2 KiB were read"_s),
                 qPrintable(result.content.right(200)));
        QVERIFY(result.content.contains(QString(2048, u'a')));
        QVERIFY(!result.content.contains(QString(2049, u'a')));
        QCOMPARE(result.details.value(u"fetch"_s).toObject().value(u"truncated"_s).toBool(), true);
    }

    void redirectsAreFollowedAndTheFinalUrlIsReported()
    {
        serve({{"/old",
                [](HttpExchange &exchange) {
                    exchange.respond(301, {{"Location", "/new"}});
                }},
               {"/new", [](HttpExchange &exchange) {
                    exchange.respond(200, {{"Content-Type", "text/plain"}}, "moved here");
                }}});

        const ToolResult result = fetch(u"/old"_s);

        QVERIFY(!result.isError);
        QVERIFY2(result.content.startsWith(u"URL: %1\nStatus: 200"_s.arg(url(u"/new"_s))),
                 qPrintable(result.content));
        QVERIFY(
            result.content.contains(u"Redirected from: %1 (redirects followed: 1)"_s.arg(url(u"/old"_s))));
        QVERIFY(result.content.endsWith(u"moved here"_s));
    }

    void aRedirectLoopIsAClearError()
    {
        serve({{"/a",
                [](HttpExchange &exchange) {
                    exchange.respond(302, {{"Location", "/b"}});
                }},
               {"/b", [](HttpExchange &exchange) {
                    exchange.respond(302, {{"Location", "/a"}});
                }}});

        const ToolResult result = fetch(u"/a"_s);

        QVERIFY(result.isError);
        QVERIFY2(result.content.contains(u"Redirect loop"_s), qPrintable(result.content));
    }

    void tooManyRedirectsAreRefused()
    {
        m_server.setHandler([](const HttpRequestRecord &request, HttpExchange &exchange) {
            const int n = request.path.mid(3).toInt();
            exchange.respond(302, {{"Location", "/r/" + QByteArray::number(n + 1)}});
        });

        const ToolResult result = fetch(u"/r/0"_s);

        QVERIFY(result.isError);
        QVERIFY2(result.content.contains(u"Too many redirects"_s), qPrintable(result.content));
    }

    void anHttpErrorIsAnErrorWithItsBody()
    {
        serve({});
        const ToolResult result = fetch(u"/missing"_s);

        QVERIFY(result.isError);
        QVERIFY2(result.content.contains(u"Status: 404"_s), qPrintable(result.content));
        QVERIFY(result.content.endsWith(u"no such page"_s));
    }

    void privateAddressesAreRefusedUnlessAllowed_data()
    {
        QTest::addColumn<QString>("host");
        QTest::newRow("an IP literal") << u"127.0.0.1"_s;
        QTest::newRow("a name that resolves to loopback") << u"localhost"_s;
    }

    void privateAddressesAreRefusedUnlessAllowed()
    {
        QFETCH(QString, host);
        serve({{"/", [](HttpExchange &exchange) {
                    exchange.respond(200, {{"Content-Type", "text/plain"}}, "inside");
                }}});
        const int requestsBefore = int(m_server.requests().size());

        FetchUrlTool::Options options;
        options.timeoutMs = 5000;
        const FetchUrlTool refusing(&m_network, options);
        const QString target = u"http://%1:%2/"_s.arg(host).arg(m_server.port());
        const ToolResult refused = fetch(refusing, {{u"url"_s, target}});

        QVERIFY(refused.isError);
        QVERIFY2(refused.content.contains(u"loopback or private"_s), qPrintable(refused.content));
        QCOMPARE(m_server.requests().size(), requestsBefore); // nothing reached the server

        const FetchUrlTool allowing(&m_network, allowingLoopback());
        const ToolResult allowed = fetch(allowing, {{u"url"_s, target}});
        QVERIFY2(!allowed.isError, qPrintable(allowed.content));
        QVERIFY(allowed.content.endsWith(u"inside"_s));
    }

    void aRedirectToAPrivateAddressIsRefusedAtThatHop()
    {
        // 127.0.0.1 stands in for a public host; 127.0.0.2 for the private one it redirects to.
        const quint16 port = m_server.port();
        serve({{"/jump", [port](HttpExchange &exchange) {
                    exchange.respond(
                        302, {{"Location", "http://127.0.0.2:" + QByteArray::number(port) + "/admin"}});
                }}});
        FetchUrlTool::Options options;
        options.timeoutMs = 5000;
        options.refusesAddress = [](const QHostAddress &address) {
            return address != QHostAddress(u"127.0.0.1"_s);
        };
        const FetchUrlTool tool(&m_network, options);

        const ToolResult result = fetch(tool, {{u"url"_s, url(u"/jump"_s)}});

        QVERIFY(result.isError);
        QVERIFY2(result.content.contains(u"127.0.0.2"_s), qPrintable(result.content));
        QVERIFY2(result.content.contains(u"loopback or private"_s), qPrintable(result.content));
        for (const HttpRequestRecord &request : m_server.requests())
            QVERIFY(request.path != "/admin");
    }

    void onlyHttpAndHttpsAreFetched_data()
    {
        QTest::addColumn<QString>("target");
        QTest::newRow("file") << u"file:///etc/passwd"_s;
        QTest::newRow("ftp") << u"ftp://example.com/x"_s;
        QTest::newRow("no scheme") << u"example.com"_s;
        QTest::newRow("nonsense") << u"::::"_s;
    }

    void onlyHttpAndHttpsAreFetched()
    {
        QFETCH(QString, target);
        const FetchUrlTool tool(&m_network, allowingLoopback());
        const ToolResult result = fetch(tool, {{u"url"_s, target}});
        QVERIFY(result.isError);
        QVERIFY2(result.content.contains(u"http:// or https://"_s), qPrintable(result.content));
    }

    void cancellationStopsWaitingAtOnce()
    {
        serve({{"/slow", [](HttpExchange &exchange) {
                    exchange.beginStream(200, {{"Content-Type", "text/plain"}});
                    exchange.stall();
                }}});
        const FetchUrlTool tool(&m_network, allowingLoopback());
        const auto context = std::make_shared<ToolContext>();
        QFuture<ToolResult> future = tool.start({{u"url"_s, url(u"/slow"_s)}}, context);
        QTRY_VERIFY(!m_server.requests().isEmpty() && m_server.requests().constLast().path == "/slow");
        QElapsedTimer timer;
        timer.start();
        context->cancel();
        QVERIFY(QTest::qWaitFor([&future] { return future.isFinished(); }, 5000));
        QVERIFY(timer.elapsed() < 2000);
        QVERIFY(future.result().isError);
        QVERIFY(future.result().content.contains(u"cancelled"_s));
    }

    void withoutANetworkManagerItSaysSo()
    {
        const FetchUrlTool tool(nullptr, allowingLoopback());
        const ToolResult result = fetch(tool, {{u"url"_s, u"https://example.com/"_s}});
        QVERIFY(result.isError);
        QVERIFY(result.content.contains(u"no network"_s));
    }

    void privateAddressesAreRecognised_data()
    {
        QTest::addColumn<QString>("address");
        QTest::addColumn<bool>("isPrivate");

        for (const char *privateAddress : {"127.0.0.1",
                                           "127.1.2.3",
                                           "10.1.2.3",
                                           "172.16.0.1",
                                           "172.31.255.255",
                                           "192.168.1.1",
                                           "169.254.169.254",
                                           "100.64.0.1",
                                           "100.127.255.255",
                                           "0.0.0.0",
                                           "224.0.0.1",
                                           "255.255.255.255",
                                           "::1",
                                           "::",
                                           "fe80::1",
                                           "fc00::1",
                                           "fd12:3456::1",
                                           "::ffff:127.0.0.1",
                                           "::ffff:192.168.0.1",
                                           "64:ff9b::a00:1"})
            QTest::newRow(privateAddress) << QString::fromLatin1(privateAddress) << true;
        for (const char *publicAddress : {"8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "192.169.0.1",
                                          "2001:4860:4860::8888", "::ffff:8.8.8.8"})
            QTest::newRow(publicAddress) << QString::fromLatin1(publicAddress) << false;
    }

    void privateAddressesAreRecognised()
    {
        QFETCH(QString, address);
        QFETCH(bool, isPrivate);
        const QHostAddress parsed(address);
        QVERIFY(!parsed.isNull() || address == u"::"_s || address == u"0.0.0.0"_s);
        QCOMPARE(FetchUrlTool::isPrivateAddress(parsed), isPrivate);
    }

    void htmlTextKeepsStructure_data()
    {
        QTest::addColumn<QString>("html");
        QTest::addColumn<QString>("text");

        QTest::newRow("headings of each level") << u"<h1>A</h1><h3>B</h3>text"_s << u"# A\n\n### B\n\ntext"_s;
        QTest::newRow("scripts, styles and templates are dropped")
            << u"<p>a</p><script type=\"x\">if (a < b) {}</script><style>p{}</style><template><p>t</p></template><p>b</p>"_s
            << u"a\n\nb"_s;
        QTest::newRow("numeric and named entities")
            << u"&#65;&#x42;&lt;&amp;amp;&unknown;"_s << u"AB<&amp;&unknown;"_s;
        QTest::newRow("a link whose text is its address")
            << u"<a href=\"https://x.org\">https://x.org</a>"_s << u"https://x.org"_s;
        QTest::newRow("fragment and javascript links keep their text only")
            << u"<a href=\"#top\">Top</a> <a href=\"javascript:void(0)\">Run</a>"_s << u"Top Run"_s;
        QTest::newRow("preformatted text keeps its lines")
            << u"<p>code:</p><pre>int a;\n  int b;</pre>"_s << u"code:\n\nint a;\n  int b;"_s;
        QTest::newRow("ordered lists are numbered") << u"<ol><li>one<li>two</ol>"_s << u"1. one\n2. two"_s;
        QTest::newRow("table cells on one line")
            << u"<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>"_s
            << u"a | b\n1 | 2"_s;
        QTest::newRow("a stray less-than sign is text") << u"1 < 2 and 3 > 2"_s << u"1 < 2 and 3 > 2"_s;
        QTest::newRow("an attribute with '>' inside quotes") << u"<p title=\"a > b\">x</p>"_s << u"x"_s;
        QTest::newRow("an unclosed script drops the rest") << u"a<script>b"_s << u"a"_s;
        QTest::newRow("images show their alt text") << u"<img src=x alt=\"A cat\">"_s << u"[image: A cat]"_s;
    }

    void htmlTextKeepsStructure()
    {
        QFETCH(QString, html);
        QFETCH(QString, text);
        QCOMPARE(HtmlText::toText(html, QUrl(u"https://example.com/dir/"_s)), text);
    }
};

QTEST_GUILESS_MAIN(FetchUrlToolTest)
#include "tst_fetchurltool.moc"
