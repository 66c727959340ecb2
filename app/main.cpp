#include "agent/config/appsettings.h"
#include "agent/config/providerprofile.h"
#include "agent/config/secretstore.h"
#include "agent/session/autosaver.h"
#include "agent/session/chatsession.h"
#include "agent/session/sessiondocument.h"
#include "agent/session/sessionlibrary.h"
#include "app/cli/exportcommand.h"
#include "app/cli/replaycommand.h"
#include "app/cli/runcommand.h"
#include "app/launch/provideroptions.h"
#include "ui/mainwindow.h"
#include "ui/session/sessionactions.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QNetworkAccessManager>
#include <QSettings>
#include <QTextStream>

using namespace Qt::StringLiterals;

namespace {

void describeApplication()
{
    QCoreApplication::setApplicationName(u"Loopscope"_s);
    QCoreApplication::setOrganizationName(u"Loopscope"_s);
    QCoreApplication::setApplicationVersion(QStringLiteral(LOOPSCOPE_VERSION));
}

int runWindow(QApplication &app)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate(
        "main", "Chat with an LLM agent and see, step by step, what its tool loop does.\n"
                "Headless commands: loopscope run, loopscope replay, loopscope export (each with --help)."));
    parser.addHelpOption();
    parser.addVersionOption();
    const Loopscope::Launch::ProviderOptions providerOptions;
    providerOptions.addTo(parser);
    parser.addPositionalArgument(
        u"session"_s, QApplication::translate("main", "A saved session (*.loopscope.json) to open."),
        u"[session]"_s);
    parser.process(app);
    if (parser.positionalArguments().size() > 1) {
        QTextStream(stderr) << "loopscope: " << QApplication::translate("main", "open one session at a time")
                            << Qt::endl;
        return 2;
    }

    std::optional<Loopscope::ProviderProfile> commandLine;
    if (providerOptions.isAnySet(parser)) {
        QString error;
        commandLine = providerOptions.profile(parser, &error);
        if (!commandLine) {
            QTextStream(stderr) << "loopscope: " << error << Qt::endl;
            return 2;
        }
    }

    QSettings settings;
    Loopscope::ProviderProfileStore profiles(&settings);
    Loopscope::AppSettings appSettings(&settings);
    Loopscope::KeychainSecretStore secrets;
    QNetworkAccessManager network;
    Loopscope::ChatSession session(&network);
    Loopscope::SessionDocument document(&session);
    // Every finished turn lands in the library, whatever happens to the process later.
    Loopscope::SessionLibrary library(Loopscope::SessionLibrary::defaultFolder());
    Loopscope::Autosaver autosaver(&session, library.folder());
    QObject::connect(&document, &Loopscope::SessionDocument::opened, &autosaver,
                     &Loopscope::Autosaver::adoptOpenedFile);
    library.refresh();

    Loopscope::Ui::MainWindow window(
        {&session, &profiles, &appSettings, &secrets, &network, &settings, &document, &library});
    QObject::connect(&autosaver, &Loopscope::Autosaver::failed, &window, [&window](const QString &error) {
        window.showMessage(QApplication::translate("main", "Autosave failed: %1").arg(error));
    });
    window.show();
    window.start(commandLine);
    if (!parser.positionalArguments().isEmpty())
        window.sessionActions()->openFile(parser.positionalArguments().constFirst());
    return QApplication::exec();
}

} // namespace

int main(int argc, char *argv[])
{
    // Headless commands need no display: decide before any GUI object exists.
    if (argc > 1 && qstrcmp(argv[1], "run") == 0) {
        QCoreApplication app(argc, argv);
        describeApplication();
        return Loopscope::Cli::RunCommand().exec(QCoreApplication::arguments());
    }
    if (argc > 1 && qstrcmp(argv[1], "replay") == 0) {
        QCoreApplication app(argc, argv);
        describeApplication();
        return Loopscope::Cli::ReplayCommand().exec(QCoreApplication::arguments());
    }
    if (argc > 1 && qstrcmp(argv[1], "export") == 0) {
        QCoreApplication app(argc, argv);
        describeApplication();
        return Loopscope::Cli::ExportCommand().exec(QCoreApplication::arguments());
    }

    QApplication app(argc, argv);
    describeApplication();
    return runWindow(app);
}
