#include "agent/mcp/mcphub.h"
#include "ui/chat/chatcomposer.h"
#include "ui/chat/mcpresourcesdialog.h"

#include <QLabel>
#include <QLineEdit>
#include <QNetworkAccessManager>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QTreeWidget>

using namespace Loopscope;
using namespace Qt::StringLiterals;

namespace {

QTreeWidgetItem *findItem(QTreeWidget *tree, const QString &text)
{
    const QList<QTreeWidgetItem *> items = tree->findItems(text, Qt::MatchExactly | Qt::MatchRecursive);
    return items.value(0);
}

} // namespace

// Against a real MCP server (tests/ui/mcpuiserver.py) through a real hub.
class McpResourcesDialogTest : public QObject
{
    Q_OBJECT

private:
    QNetworkAccessManager m_network;
    std::unique_ptr<McpHub> m_hub;

private slots:
    void init()
    {
        m_hub = std::make_unique<McpHub>(&m_network);
        McpServerConfig server;
        server.name = u"ui"_s;
        server.command = u"python3"_s;
        server.arguments = {QStringLiteral(MCPUI_SERVER)};
        m_hub->setServers({server});
        QTRY_VERIFY_WITH_TIMEOUT(
            m_hub->client(u"ui"_s) && m_hub->client(u"ui"_s)->state() == McpClient::State::Ready, 15000);
    }

    void cleanup() { m_hub.reset(); }

    void theReadyServersPromptsAndResourcesAreListed()
    {
        Ui::McpResourcesDialog dialog(m_hub.get());
        QTreeWidget *tree = dialog.tree();
        QCOMPARE(tree->topLevelItemCount(), 1);
        QCOMPARE(tree->topLevelItem(0)->text(0), u"ui"_s);
        QVERIFY(findItem(tree, u"Prompt: Review code"_s));
        QVERIFY(findItem(tree, u"Resource: Today's notes"_s));
    }

    void aPromptAsksForItsArgumentsAndItsTextGoesIntoTheComposer()
    {
        Ui::ChatComposer composer;
        composer.setText(u"Hello"_s);
        Ui::McpResourcesDialog dialog(m_hub.get());
        connect(&dialog, &Ui::McpResourcesDialog::insertRequested, &composer, &Ui::ChatComposer::insertText);
        dialog.show();
        dialog.tree()->setCurrentItem(findItem(dialog.tree(), u"Prompt: Review code"_s));
        QLineEdit *file = dialog.argumentEdit(u"file"_s);
        QVERIFY(file);
        QVERIFY(dialog.argumentEdit(u"focus"_s));
        QVERIFY(file->accessibleName().contains(u"required"_s));
        QVERIFY(!dialog.insertButton()->isEnabled()); // the required argument is empty
        QTest::keyClicks(file, u"main.cpp"_s);
        QVERIFY(dialog.insertButton()->isEnabled());
        dialog.insertButton()->click();
        QTRY_COMPARE(composer.text(), u"Hello\nPlease review main.cpp."_s);
        QVERIFY(!dialog.isVisible());
    }

    void aResourceIsReadShownAndInserted()
    {
        Ui::McpResourcesDialog dialog(m_hub.get());
        QSignalSpy inserted(&dialog, &Ui::McpResourcesDialog::insertRequested);
        dialog.show();
        dialog.tree()->setCurrentItem(findItem(dialog.tree(), u"Resource: Today's notes"_s));
        QTRY_COMPARE(dialog.resourceView()->toPlainText(), u"Buy milk.\nCall Ada."_s);
        QVERIFY(dialog.resourceView()->isReadOnly());
        dialog.insertButton()->click();
        QCOMPARE(inserted.size(), 1);
        QCOMPARE(inserted.first().first().toString(), u"Buy milk.\nCall Ada."_s);
    }

    void withoutServersTheDialogSaysSo()
    {
        McpHub empty(&m_network);
        Ui::McpResourcesDialog dialog(&empty);
        QCOMPARE(dialog.tree()->topLevelItemCount(), 1);
        QVERIFY(dialog.tree()->topLevelItem(0)->text(0).startsWith(u"No running MCP server"_s));
        QVERIFY(!dialog.insertButton()->isEnabled());
    }
};

QTEST_MAIN(McpResourcesDialogTest)
#include "tst_mcpresourcesdialog.moc"
