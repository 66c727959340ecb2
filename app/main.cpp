#include "cli/runcommand.h"
#include "mainwindow.h"
#include "trace/trace.h"

#include <QApplication>

namespace {

void describeApplication()
{
    QCoreApplication::setApplicationName(QStringLiteral("Loopscope"));
    QCoreApplication::setOrganizationName(QStringLiteral("Loopscope"));
    QCoreApplication::setApplicationVersion(QStringLiteral(LOOPSCOPE_VERSION));
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

    QApplication app(argc, argv);
    describeApplication();
    Loopscope::Trace trace;
    Loopscope::Ui::MainWindow window(&trace);
    window.show();
    return QApplication::exec();
}
