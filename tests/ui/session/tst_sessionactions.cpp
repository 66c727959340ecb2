#include "agent/session/chatsession.h"
#include "agent/session/sessiondocument.h"
#include "ui/session/sessionactions.h"

#include <QAction>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QNetworkAccessManager>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QWidget>

using namespace Loopscope;
using namespace Qt::StringLiterals;

class SessionActionsTest : public QObject
{
    Q_OBJECT

private:
    // Chooses the Export submenu's entry that starts with \a label and answers its file dialog with \a path.
    static void exportTo(QWidget &window, Ui::SessionActions &actions, const QString &label,
                         const QString &path)
    {
        QAction *chosen = nullptr;
        for (QAction *action : actions.exportMenu()->actions()) {
            if (action->text().startsWith(label))
                chosen = action;
        }
        QVERIFY2(chosen, qPrintable(label));
        chosen->trigger();
        QFileDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = window.findChild<QFileDialog *>()));
        emit dialog->fileSelected(path);
    }

private slots:
    void anExportThatCannotBeWrittenSaysSoAndNotExported_data()
    {
        QTest::addColumn<QString>("label");
        QTest::newRow("markdown") << u"As &Markdown"_s;
        QTest::newRow("html") << u"As Standalone &HTML"_s;
        QTest::newRow("otlp") << u"Trace as &OpenTelemetry"_s;
    }

    void anExportThatCannotBeWrittenSaysSoAndNotExported()
    {
        QFETCH(QString, label);
        QTemporaryDir dir;
        QNetworkAccessManager network;
        ChatSession session(&network);
        SessionDocument document(&session);
        QSettings state(dir.filePath(u"state.ini"_s), QSettings::IniFormat);
        QWidget window;
        Ui::SessionActions actions(&document, &state, &window);
        QSignalSpy messages(&actions, &Ui::SessionActions::message);
        const QString path = dir.filePath(u"no such folder/session.export"_s);

        exportTo(window, actions, label, path);
        if (QTest::currentTestFailed())
            return;

        QMessageBox *error = nullptr;
        QTRY_VERIFY((error = window.findChild<QMessageBox *>()) && error->isVisible());
        QVERIFY2(error->text().contains(u"no such folder"_s), qPrintable(error->text()));
        QVERIFY(messages.isEmpty());
        QVERIFY(!QFileInfo::exists(path));
    }

    void saveSuggestsASafeNameAndOpenRecentShowsTheTitle()
    {
        QTemporaryDir dir;
        QNetworkAccessManager network;
        ChatSession session(&network);
        session.setTitle(u"Fix src/main.cpp: crash & burn"_s);
        SessionDocument document(&session);
        QSettings state(dir.filePath(u"state.ini"_s), QSettings::IniFormat);
        QWidget window;
        Ui::SessionActions actions(&document, &state, &window);

        actions.saveAsAction()->trigger();
        QFileDialog *dialog = nullptr;
        QTRY_VERIFY((dialog = window.findChild<QFileDialog *>()));
        QCOMPARE(dialog->selectedFiles().value(0).section(u'/', -1),
                 u"Fix src-main.cpp- crash & burn.loopscope.json"_s);
        const QString path = dir.filePath(u"0f3a9c.loopscope.json"_s); // named like a library file
        emit dialog->fileSelected(path);
        QTRY_VERIFY(QFile::exists(path));

        const QList<QAction *> recent = actions.recentMenu()->actions();
        QVERIFY(!recent.isEmpty());
        QCOMPARE(recent.first()->text(), u"Fix src/main.cpp: crash && burn"_s); // && shows one &
        QCOMPARE(recent.first()->toolTip(), path);
    }

    void anExportThatIsWrittenSaysWhere()
    {
        QTemporaryDir dir;
        QNetworkAccessManager network;
        ChatSession session(&network);
        SessionDocument document(&session);
        QSettings state(dir.filePath(u"state.ini"_s), QSettings::IniFormat);
        QWidget window;
        Ui::SessionActions actions(&document, &state, &window);
        QSignalSpy messages(&actions, &Ui::SessionActions::message);
        const QString path = dir.filePath(u"session.otlp.json"_s);

        exportTo(window, actions, u"Trace as &OpenTelemetry"_s, path);
        if (QTest::currentTestFailed())
            return;

        QTRY_COMPARE(messages.size(), 1);
        QCOMPARE(messages.first().first().toString(), u"Exported to session.otlp.json."_s);
        QFile written(path);
        QVERIFY(written.open(QIODevice::ReadOnly));
        QVERIFY(written.readAll().contains("resourceSpans"));
        QVERIFY(!window.findChild<QMessageBox *>());
    }
};

QTEST_MAIN(SessionActionsTest)
#include "tst_sessionactions.moc"
