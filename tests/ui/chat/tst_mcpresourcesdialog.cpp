#include "agent/mcp/mcphub.h"
#include "ui/chat/chatcomposer.h"
#include "ui/chat/composerattachments.h"
#include "ui/chat/mcpresourcesdialog.h"

#include <QLabel>
#include <QLineEdit>
#include <QNetworkAccessManager>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QTreeWidget>

#include <optional>

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

    void aResourceIsReadShownAndBecomesAnAttachmentOfTheMessage_data()
    {
        QTest::addColumn<QString>("item");
        QTest::addColumn<QString>("shown");
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("image");
        // A text resource goes as a text file named after the resource (its URI has no file name).
        QTest::newRow("text") << u"Resource: Today's notes"_s << u"Buy milk.\nCall Ada."_s
                              << u"Today's notes"_s << false;
        // A blob goes as what its bytes are, named after its URI.
        QTest::newRow("image blob") << u"Resource: Sales chart"_s
                                    << u"[blob: file:///reports/chart.png, image/png, 70 bytes]"_s
                                    << u"chart.png"_s << true;
    }

    void aResourceIsReadShownAndBecomesAnAttachmentOfTheMessage()
    {
        QFETCH(QString, item);
        QFETCH(QString, shown);
        QFETCH(QString, name);
        QFETCH(bool, image);
        Ui::ChatComposer composer;
        composer.setText(u"Hello"_s);
        Ui::McpResourcesDialog dialog(m_hub.get());
        connect(&dialog, &Ui::McpResourcesDialog::insertRequested, &composer, &Ui::ChatComposer::insertText);
        connect(&dialog, &Ui::McpResourcesDialog::attachRequested, composer.attachmentList(),
                &Ui::ComposerAttachments::addBytes);
        dialog.show();
        dialog.tree()->setCurrentItem(findItem(dialog.tree(), item));
        QTRY_COMPARE(dialog.resourceView()->toPlainText(), shown);
        QVERIFY(dialog.resourceView()->isReadOnly());
        QVERIFY(dialog.insertButton()->isEnabled());
        QCOMPARE(dialog.insertButton()->text(), u"&Attach to Message"_s);
        dialog.insertButton()->click();
        QVERIFY(!dialog.isVisible());

        // A chip in the composer, the text left as it was.
        QTRY_COMPARE(composer.attachments().size(), 1);
        QCOMPARE(composer.attachmentList()->chips().size(), 1);
        QCOMPARE(composer.text(), u"Hello"_s);
        const Attachment attachment = composer.attachments().constFirst();
        QCOMPARE(attachment.name, name);
        QCOMPARE(attachment.isImage(), image);
        if (image) {
            QCOMPARE(attachment.mimeType, u"image/png"_s);
            QCOMPARE(attachment.bytes,
                     QByteArray::fromBase64("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4"
                                            "2mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="));
            QCOMPARE(attachment.pixelSize, QSize(1, 1));
        } else {
            QCOMPARE(attachment.text, shown);
        }
    }

    void aResourceShownIsFollowedAndReadAgainWhenItChanges()
    {
        McpClient *client = m_hub->client(u"ui"_s);
        QVERIFY(client->supportsResourceSubscriptions());
        {
            Ui::McpResourcesDialog dialog(m_hub.get());
            dialog.show();
            dialog.tree()->setCurrentItem(findItem(dialog.tree(), u"Resource: Today's notes"_s));
            QTRY_COMPARE(dialog.resourceView()->toPlainText(), u"Buy milk.\nCall Ada."_s);
            QCOMPARE(client->subscribedResources(), QStringList{u"notes://today"_s});

            // The server edits it (and says so): it is read again, and the dialog says why it changed.
            std::optional<McpCallOutcome> touched;
            client->callTool(u"lookup"_s, {{u"q"_s, u"touch"_s}}, 0, {},
                             [&touched](const McpCallOutcome &outcome) { touched = outcome; });
            QTRY_COMPARE(dialog.resourceView()->toPlainText(), u"Buy milk.\nCall Ada.\nEdit 1."_s);
            QVERIFY(touched.has_value());
            QVERIFY2(dialog.statusLabel()->text().startsWith(u"Changed on the server at "_s),
                     qPrintable(dialog.statusLabel()->text()));
            QVERIFY(dialog.statusLabel()->isVisible());

            // Another resource: only the one shown is followed.
            dialog.tree()->setCurrentItem(findItem(dialog.tree(), u"Resource: Sales chart"_s));
            QCOMPARE(client->subscribedResources(), QStringList{u"file:///reports/chart.png"_s});
            QVERIFY(!dialog.statusLabel()->isVisible());
        }
        // Closed: nothing stays subscribed.
        QVERIFY(client->subscribedResources().isEmpty());
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
