#include "agent/mcp/mcpclient.h"
#include "agent/mcp/mcphub.h"
#include "agent/mcp/mcpmessagelog.h"
#include "tests/mcp/mcptestservers.h"
#include "ui/chat/schemaform.h"
#include "ui/inspector/inspectorpromptspanel.h"
#include "ui/inspector/inspectorresourcespanel.h"
#include "ui/inspector/inspectortoolspanel.h"
#include "ui/inspector/mcpinspectorwindow.h"
#include "ui/inspector/mcplogfiltermodel.h"
#include "ui/inspector/mcplogpanel.h"
#include "ui/inspector/mcpresultview.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QNetworkAccessManager>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableView>
#include <QTest>
#include <QTreeWidget>

#include <memory>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

constexpr int StartTimeoutMs = 30'000;
const QString Everything = u"everything"_s;
const QString Broken = u"broken"_s;

McpServerConfig brokenServer()
{
    McpServerConfig config;
    config.name = Broken;
    config.command = u"/nonexistent/loopscope-no-such-mcp-server"_s;
    return config;
}

bool select(QListWidget *list, const QString &text)
{
    const QList<QListWidgetItem *> items = list->findItems(text, Qt::MatchExactly);
    if (items.isEmpty())
        return false;
    list->setCurrentItem(items.first());
    return true;
}

} // namespace

class TestMcpInspector final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void init();
    void cleanup();

    void callingAToolThroughItsFormShowsTheResult_data();
    void callingAToolThroughItsFormShowsTheResult();
    void aLongCallIsCancelledAndTheServerHearsOfIt();
    void aResourceTemplateIsReadOnceItsVariableIsFilledIn();
    void aPromptIsGotWithItsArguments();
    void theLogIsFilteredAndCopiedAsJsonLines();
    void aFailingServerShowsItsErrorAndTheWindowStays();

private:
    // Opens the Inspector on \a server and waits until it is ready.
    bool openOn(const QString &server);

    QNetworkAccessManager m_network;
    std::unique_ptr<McpHub> m_hub;
    std::unique_ptr<McpMessageLog> m_log;
    std::unique_ptr<Ui::McpInspectorWindow> m_window;
};

void TestMcpInspector::initTestCase()
{
    const QString reason = McpTestServers::unavailableReason();
    QVERIFY2(reason.isEmpty(), qPrintable(reason));
}

void TestMcpInspector::init()
{
    m_hub = std::make_unique<McpHub>(&m_network);
    m_hub->setServers({McpTestServers::everythingStdio(Everything), brokenServer()});
    m_log = std::make_unique<McpMessageLog>();
    m_window = std::make_unique<Ui::McpInspectorWindow>(m_hub.get(), m_log.get());
    m_window->show();
}

void TestMcpInspector::cleanup()
{
    m_window.reset();
    m_hub.reset();
    m_log.reset();
}

bool TestMcpInspector::openOn(const QString &server)
{
    if (!m_window->chooseServer(server))
        return false;
    McpClient *client = m_hub->client(server);
    return client
           && QTest::qWaitFor([client] { return client->state() != McpClient::State::Starting; },
                              StartTimeoutMs)
           && client->state() == McpClient::State::Ready;
}

void TestMcpInspector::callingAToolThroughItsFormShowsTheResult_data()
{
    QTest::addColumn<QString>("tool");
    QTest::addColumn<QVariantMap>("values");
    QTest::addColumn<QString>("expected");
    QTest::addColumn<int>("images");
    QTest::newRow("echo: a text field")
        << u"echo"_s << QVariantMap{{u"message"_s, u"hello inspector"_s}} << u"hello inspector"_s << 0;
    QTest::newRow("get-sum: two number fields")
        << u"get-sum"_s << QVariantMap{{u"a"_s, 2}, {u"b"_s, 40}} << u"42"_s << 0;
    QTest::newRow("get-structured-content: a choice, structured content")
        << u"get-structured-content"_s << QVariantMap{{u"location"_s, u"Chicago"_s}} << u"\"temperature\""_s
        << 0;
    QTest::newRow("get-tiny-image: no arguments, an image drawn")
        << u"get-tiny-image"_s << QVariantMap{} << u"[image "_s << 1;
}

void TestMcpInspector::callingAToolThroughItsFormShowsTheResult()
{
    QFETCH(QString, tool);
    QFETCH(QVariantMap, values);
    QFETCH(QString, expected);
    QFETCH(int, images);
    QVERIFY2(openOn(Everything), qPrintable(m_window->statusLabel()->text()));
    QTRY_VERIFY(m_window->statusLabel()->text().startsWith(u"Ready"_s));
    Ui::InspectorToolsPanel *panel = m_window->toolsPanel();
    QTRY_VERIFY(select(panel->toolList(), tool));
    for (auto it = values.cbegin(); it != values.cend(); ++it) {
        QWidget *field = panel->form()->field(it.key());
        QVERIFY2(field, qPrintable(it.key()));
        if (auto *edit = qobject_cast<QLineEdit *>(field)) {
            edit->clear();
            QTest::keyClicks(edit, it.value().toString());
        } else if (auto *spin = qobject_cast<QDoubleSpinBox *>(field)) {
            spin->setValue(it.value().toDouble());
        } else if (auto *spin = qobject_cast<QSpinBox *>(field)) {
            spin->setValue(it.value().toInt());
        } else if (auto *combo = qobject_cast<QComboBox *>(field)) {
            QVERIFY(combo->findData(it.value().toString()) >= 0);
            combo->setCurrentIndex(combo->findData(it.value().toString()));
        } else {
            QFAIL(qPrintable(u"no way to fill in "_s + it.key()));
        }
    }
    QVERIFY2(panel->callButton()->isEnabled(), qPrintable(panel->form()->problem()));
    QTest::mouseClick(panel->callButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(panel->resultView()->summary().startsWith(u"Result after"_s), 30'000);
    QVERIFY2(panel->resultView()->summary().contains(expected), qPrintable(panel->resultView()->summary()));
    QCOMPARE(panel->resultView()->imageCount(), images);
    QVERIFY(panel->callButton()->isEnabled());
    // The call went through the app's client: the log has it, with the arguments the form made.
    bool logged = false;
    for (int row = 0; row < m_log->rowCount(); ++row) {
        const McpMessageLog::Entry &e = m_log->entry(row);
        if (e.outgoing && e.method == u"tools/call"_s && e.kind == u"request"_s
            && e.message.value(u"params"_s).toObject().value(u"name"_s).toString() == tool)
            logged = true;
    }
    QVERIFY(logged);
}

void TestMcpInspector::aLongCallIsCancelledAndTheServerHearsOfIt()
{
    QVERIFY2(openOn(Everything), qPrintable(m_window->statusLabel()->text()));
    Ui::InspectorToolsPanel *panel = m_window->toolsPanel();
    QTRY_VERIFY(select(panel->toolList(), u"trigger-long-running-operation"_s));
    auto *duration = qobject_cast<QDoubleSpinBox *>(panel->form()->field(u"duration"_s));
    QVERIFY(duration);
    duration->setValue(60);
    QVERIFY(panel->cancelButton()->isHidden());
    QTest::mouseClick(panel->callButton(), Qt::LeftButton);
    QVERIFY(!panel->callButton()->isEnabled());
    QVERIFY(!panel->cancelButton()->isHidden());
    QTest::mouseClick(panel->cancelButton(), Qt::LeftButton);
    QVERIFY2(panel->resultView()->summary().contains(u"was cancelled"_s),
             qPrintable(panel->resultView()->summary()));
    QVERIFY(panel->callButton()->isEnabled());
    QVERIFY(panel->cancelButton()->isHidden());
    bool told = false;
    for (int row = 0; row < m_log->rowCount(); ++row)
        told = told
               || (m_log->entry(row).outgoing && m_log->entry(row).method == u"notifications/cancelled"_s);
    QVERIFY(told);
}

void TestMcpInspector::aResourceTemplateIsReadOnceItsVariableIsFilledIn()
{
    QVERIFY2(openOn(Everything), qPrintable(m_window->statusLabel()->text()));
    Ui::InspectorResourcesPanel *panel = m_window->resourcesPanel();
    QTreeWidgetItem *templates = nullptr;
    QTRY_VERIFY([&] {
        const QList<QTreeWidgetItem *> found
            = panel->tree()->findItems(u"Resource templates"_s, Qt::MatchExactly);
        templates = found.isEmpty() ? nullptr : found.first();
        return templates && templates->childCount() > 0;
    }());
    QTreeWidgetItem *text = nullptr;
    for (int i = 0; i < templates->childCount(); ++i) {
        if (templates->child(i)->text(1).contains(u"text/{resourceId}"_s))
            text = templates->child(i);
    }
    QVERIFY(text);
    panel->tree()->setCurrentItem(text);
    QVERIFY(panel->uriEdit()->text().endsWith(u"{resourceId}"_s));
    panel->uriEdit()->setText(panel->uriEdit()->text().replace(u"{resourceId}"_s, u"7"_s));
    QTest::mouseClick(panel->readButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(panel->resultView()->summary().startsWith(u"Contents of"_s), 30'000);
    QVERIFY2(panel->resultView()->summary().contains(u"Resource 7: This is a plaintext resource"_s),
             qPrintable(panel->resultView()->summary()));
}

void TestMcpInspector::aPromptIsGotWithItsArguments()
{
    QVERIFY2(openOn(Everything), qPrintable(m_window->statusLabel()->text()));
    Ui::InspectorPromptsPanel *panel = m_window->promptsPanel();
    QTRY_VERIFY(select(panel->promptList(), u"args-prompt"_s));
    // The required city is missing: no Get yet.
    QVERIFY(!panel->getButton()->isEnabled());
    auto *city = qobject_cast<QLineEdit *>(panel->form()->field(u"city"_s));
    QVERIFY(city);
    QTest::keyClicks(city, u"Lisbon"_s);
    QVERIFY(panel->getButton()->isEnabled());
    QTest::mouseClick(panel->getButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(panel->resultView()->summary().startsWith(u"Prompt args-prompt"_s), 30'000);
    QVERIFY2(panel->resultView()->summary().contains(u"What's weather in Lisbon?"_s),
             qPrintable(panel->resultView()->summary()));
}

void TestMcpInspector::theLogIsFilteredAndCopiedAsJsonLines()
{
    Ui::McpLogPanel *logPanel = m_window->logPanel();
    QAbstractItemModelTester tester(logPanel->filterModel(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY2(openOn(Everything), qPrintable(m_window->statusLabel()->text()));
    // The hub started the server before the window watched it: the log begins with the next messages,
    // so a call makes sure there is traffic.
    Ui::InspectorToolsPanel *tools = m_window->toolsPanel();
    QTRY_VERIFY(select(tools->toolList(), u"echo"_s));
    QTest::keyClicks(qobject_cast<QLineEdit *>(tools->form()->field(u"message"_s)), u"filtered"_s);
    QTest::mouseClick(tools->callButton(), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(tools->resultView()->summary().startsWith(u"Result after"_s), 30'000);

    logPanel->methodFilter()->setText(u"tools/call"_s);
    QCOMPARE(logPanel->filterModel()->rowCount(), 2); // the request and its response
    logPanel->directionFilter()->setCurrentIndex(logPanel->directionFilter()->findText(u"Received"_s));
    QCOMPARE(logPanel->filterModel()->rowCount(), 1);
    logPanel->directionFilter()->setCurrentIndex(0);
    logPanel->textFilter()->setText(u"no message says this"_s);
    QCOMPARE(logPanel->filterModel()->rowCount(), 0);
    logPanel->textFilter()->setText(u"FILTERED"_s); // any case
    QCOMPARE(logPanel->filterModel()->rowCount(), 2);

    logPanel->copyAll();
    const QStringList lines = QApplication::clipboard()->text().split(u'\n', Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 2);
    const QJsonObject response = QJsonDocument::fromJson(lines.at(1).toUtf8()).object();
    QCOMPARE(response.value(u"direction"_s).toString(), u"received"_s);
    QVERIFY(response.contains(u"roundTripMs"_s));
    QVERIFY(response.value(u"message"_s).toObject().contains(u"result"_s));

    logPanel->table()->setCurrentIndex(logPanel->filterModel()->index(0, 0));
    logPanel->copySelected();
    const QJsonObject request = QJsonDocument::fromJson(QApplication::clipboard()->text().toUtf8()).object();
    QCOMPARE(request.value(u"method"_s).toString(), u"tools/call"_s);
}

void TestMcpInspector::aFailingServerShowsItsErrorAndTheWindowStays()
{
    QVERIFY(m_window->chooseServer(Broken));
    McpClient *client = m_hub->client(Broken);
    QVERIFY(client);
    QTRY_COMPARE_WITH_TIMEOUT(client->state(), McpClient::State::Failed, StartTimeoutMs);
    QTRY_COMPARE(m_window->statusLabel()->text(), client->failureReason());
    QVERIFY(m_window->statusLabel()->text().contains(Broken));
    QVERIFY(m_window->isVisible());
    QCOMPARE(m_window->toolsPanel()->toolList()->count(), 0);
    QVERIFY(!m_window->toolsPanel()->callButton()->isEnabled());
    // Start tries again and fails again, still saying why.
    QVERIFY(m_window->startButton()->isEnabled());
    QTest::mouseClick(m_window->startButton(), Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(client->state(), McpClient::State::Failed, StartTimeoutMs);
    QTRY_COMPARE(m_window->statusLabel()->text(), client->failureReason());
    // The other server still works from the same window.
    QVERIFY2(openOn(Everything), qPrintable(m_window->statusLabel()->text()));
    QTRY_VERIFY(m_window->toolsPanel()->toolList()->count() > 0);
}

QTEST_MAIN(TestMcpInspector)
#include "tst_mcpinspector.moc"
