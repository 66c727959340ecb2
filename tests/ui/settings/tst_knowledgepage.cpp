#include "agent/config/appsettings.h"
#include "agent/config/providerprofile.h"
#include "agent/session/knowledgebasesmodel.h"
#include "ui/settings/knowledgebasedialog.h"
#include "ui/settings/knowledgepage.h"

#include "tests/support/testfiles.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace Loopscope;
using namespace Loopscope::Ui;
using namespace Qt::StringLiterals;
using Loopscope::Testing::writeFile;

/*
    Settings → Knowledge over a temporary data folder: a base added over a temporary folder of documents
    is indexed in the background with a progress bar, a run is cancelled, a base is removed once the
    user says yes, and the automatic retrieval setting is what the page saves.
*/
class TestKnowledgePage final : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_root;
    QString m_docs;
    QString m_data;

    void writeDocuments(int count)
    {
        for (int i = 0; i < count; ++i)
            QVERIFY(writeFile(m_docs + u"/note%1.md"_s.arg(i),
                              "# Note\n\nThe lighthouse keeper logs the tide.\n"));
    }

    // Add… in the page, the dialog filled as the user would (the folder as the folder dialog gives it).
    void addThroughTheDialog(KnowledgePage &page, const QString &name)
    {
        page.addButton()->click();
        QVERIFY(page.addDialog());
        page.addDialog()->setName(name);
        page.addDialog()->addPaths({m_docs});
        page.addDialog()->accept();
    }

private slots:
    void init()
    {
        QVERIFY(m_root.isValid());
        QDir(m_root.path()).removeRecursively();
        m_docs = m_root.filePath(u"docs"_s);
        m_data = m_root.filePath(u"data"_s);
        QVERIFY(QDir().mkpath(m_docs));
        QVERIFY(QDir().mkpath(m_data));
    }

    void anAddedBaseIsIndexedInTheBackgroundWithProgress()
    {
        writeDocuments(40);
        KnowledgeBasesModel model(m_data);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        KnowledgePage page(&model, nullptr);
        page.show();
        QSignalSpy finished(&model, &KnowledgeBasesModel::indexingFinished);

        addThroughTheDialog(page, u"notes"_s);

        QCOMPARE(model.names(), QStringList{u"notes"_s});
        QCOMPARE(page.listView()->currentIndex().data().toString(), u"notes"_s);
        // The dialog closed before any file was read; the run shows its progress until it ends.
        QVERIFY(page.progressBar()->isVisible());
        QVERIFY(page.cancelButton()->isVisible());
        QVERIFY(!page.reindexButton()->isEnabled());
        QTRY_COMPARE(finished.count(), 1);
        QVERIFY(!page.progressBar()->isVisible());
        QVERIFY(page.reindexButton()->isEnabled());
        QTRY_VERIFY2(page.detailsLabel()->text().contains(u"Files 40"_s),
                     qPrintable(page.detailsLabel()->text()));
        QVERIFY(page.detailsLabel()->text().contains(u"Embeddings: none"_s));
    }

    void theDialogSaysWhatIsMissing_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("withPath");
        QTest::newRow("no name") << QString() << true;
        QTest::newRow("a name that is a path") << u"../notes"_s << true;
        QTest::newRow("no folder") << u"notes"_s << false;
    }

    void theDialogSaysWhatIsMissing()
    {
        QFETCH(QString, name);
        QFETCH(bool, withPath);
        KnowledgeBaseDialog dialog({});
        dialog.setName(name);
        if (withPath)
            dialog.addPaths({m_docs});
        QVERIFY(!dialog.validationError().isEmpty());
        dialog.accept();
        QCOMPARE(dialog.result(), int(QDialog::Rejected)); // still open
    }

    void theEmbeddingModelComesFromAProviderProfile()
    {
        ProviderProfile ollama;
        ollama.id = u"local"_s;
        ollama.name = u"Local"_s;
        ollama.kind = ProviderKind::Ollama;
        ollama.baseUrl = QUrl(u"http://127.0.0.1:11434"_s);
        ollama.model = u"llama3"_s;
        ProviderProfile anthropic;
        anthropic.kind = ProviderKind::Anthropic;
        anthropic.model = u"claude"_s;
        KnowledgeBaseDialog dialog({anthropic, ollama});
        QComboBox *providers = dialog.embeddingProviderCombo();
        QCOMPARE(providers->count(), 2); // None and Ollama: Anthropic has no embeddings
        providers->setCurrentIndex(1);
        dialog.embeddingModelEdit()->setText(u"nomic-embed-text"_s);
        dialog.setName(u"notes"_s);
        dialog.addPaths({m_docs});
        const KnowledgeBaseDefinition base = dialog.definition();
        QCOMPARE(base.embedding.kind, ProviderKind::Ollama);
        QCOMPARE(base.embedding.model, u"nomic-embed-text"_s);
        QCOMPARE(base.embedding.baseUrl, ollama.baseUrl);
        QCOMPARE(base.embedding.apiKeyEnv, QString()); // Ollama runs without a key
    }

    void cancelStopsTheRunAndKeepsTheBase()
    {
        writeDocuments(300);
        KnowledgeBasesModel model(m_data);
        KnowledgePage page(&model, nullptr);
        page.show();
        QSignalSpy finished(&model, &KnowledgeBasesModel::indexingFinished);
        addThroughTheDialog(page, u"notes"_s);
        QVERIFY(page.cancelButton()->isVisible());
        page.cancelButton()->click();
        QTRY_COMPARE(finished.count(), 1);
        QVERIFY(finished.at(0).at(1).value<KnowledgeIndexOutcome>().cancelled);
        QVERIFY(!page.cancelButton()->isVisible());
        QCOMPARE(model.names(), QStringList{u"notes"_s});

        page.reindexButton()->click(); // the incremental run goes on
        QTRY_COMPARE(finished.count(), 2);
        QTRY_VERIFY2(page.detailsLabel()->text().contains(u"Files 300"_s),
                     qPrintable(page.detailsLabel()->text()));
    }

    void removeAsksFirst_data()
    {
        QTest::addColumn<QMessageBox::StandardButton>("answer");
        QTest::addColumn<bool>("removed");
        QTest::newRow("yes") << QMessageBox::Yes << true;
        QTest::newRow("cancel") << QMessageBox::Cancel << false;
    }

    void removeAsksFirst()
    {
        QFETCH(QMessageBox::StandardButton, answer);
        QFETCH(bool, removed);
        writeDocuments(2);
        KnowledgeBasesModel model(m_data);
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        KnowledgePage page(&model, nullptr);
        QSignalSpy finished(&model, &KnowledgeBasesModel::indexingFinished);
        addThroughTheDialog(page, u"notes"_s);
        QTRY_COMPARE(finished.count(), 1);

        page.removeButton()->click();
        QMessageBox *box = page.findChild<QMessageBox *>();
        QVERIFY(box);
        QCOMPARE(model.rowCount(), 1); // nothing happens before the answer
        box->button(answer)->click();

        QCOMPARE(model.rowCount(), removed ? 0 : 1);
        QTRY_COMPARE(QFileInfo::exists(model.library().databasePath(u"notes"_s)), !removed);
        QVERIFY(QFileInfo::exists(m_docs + u"/note0.md"_s)); // the documents stay
    }

    void theRetrievalSettingIsSaved_data()
    {
        QTest::addColumn<int>("choice");
        QTest::addColumn<bool>("automatic");
        QTest::newRow("tool") << 0 << false;
        QTest::newRow("auto") << 1 << true;
    }

    void theRetrievalSettingIsSaved()
    {
        QFETCH(int, choice);
        QFETCH(bool, automatic);
        QSettings stored(m_root.filePath(u"settings.ini"_s), QSettings::IniFormat);
        AppSettings settings(&stored);
        KnowledgeBasesModel model(m_data);
        KnowledgePage page(&model, nullptr);
        page.load(settings);
        QCOMPARE(page.retrievalCombo()->currentIndex(), 0);
        page.retrievalCombo()->setCurrentIndex(choice);
        page.save(settings);
        QCOMPARE(settings.retrieveKnowledgeBeforeTurn(), automatic);
        KnowledgePage reloaded(&model, nullptr);
        reloaded.load(settings);
        QCOMPARE(reloaded.retrievalCombo()->currentIndex(), choice);
    }
};

QTEST_MAIN(TestKnowledgePage)
#include "tst_knowledgepage.moc"
